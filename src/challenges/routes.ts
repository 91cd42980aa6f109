// The challenges' routes: each path with its schema (route-schemas.ts), who may call it, and
// the handler that answers it (route-handlers.ts). The plugin takes what the handlers need,
// by name, from the composition root.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './route-schemas.ts';
import { ChallengeHandlers, type ChallengeRouteDeps } from './route-handlers.ts';

export function challengeRoutes(deps: ChallengeRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const handlers = new ChallengeHandlers(deps);

    app.post('/challenges', { schema: S.CreateChallenge, config: { access: 'admin' } }, handlers.create);
    app.get('/challenges', { schema: S.ListChallenges, config: { access: 'public' } }, handlers.list);
    app.get('/challenges/:slug', { schema: S.ChallengeBySlug, config: { access: 'public' } }, handlers.show);
    app.patch('/challenges/:slug', { schema: S.ChangeChallenge, config: { access: 'admin' } }, handlers.change);
  };
}
