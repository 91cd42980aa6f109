// Trained ensembles over HTTP: the organiser trains one from a challenge's stored answers
// and its loaded gold standard; every training is stored as a new version.
//   POST /challenges/:slug/ensembles/:task  (admin) {cutoff?, lambda?, runs?} → 201 the stored model
//   GET  /challenges/:slug/ensembles/:task  (organiser; teams once closed) → the versions
// Runs are the leaderboard's online run names (`T<team id>_S<n>`), one per server
// registered for the task; a model is applied to another challenge's article (say, a live
// one) by the same names there: the team's n-th server of that challenge.
// Each path with its schema (route-schemas.ts), who may call it, and the handler that
// answers it (route-handlers.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './route-schemas.ts';
import { EnsembleHandlers, type EnsembleRouteDeps } from './route-handlers.ts';

export function consensusRoutes(deps: EnsembleRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const handlers = new EnsembleHandlers(deps);

    app.post('/challenges/:slug/ensembles/:task', { schema: S.TrainEnsemble, config: { access: 'admin' } }, handlers.train);
    app.get('/challenges/:slug/ensembles/:task', { schema: S.EnsembleVersions, config: { access: 'participant' } }, handlers.versions);
  };
}
