// The HTTP face of scoring: gold standards, maps, offline runs, leaderboards. (A server's
// online run as a TSV file is exported by articles/export-routes.ts, with the other formats.)
// Each path with its schema (route-schemas.ts), who may call it, and the handler that answers
// it (route-handlers.ts). Runs as its own encapsulated plugin so its text/TSV body parsers
// apply here only.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../http/api-error.ts';
import { addUtf8BodyParser } from '../http/utf8-body.ts';
import * as S from './route-schemas.ts';
import { LeaderboardHandlers, type LeaderboardRouteDeps } from './route-handlers.ts';

/**
 * Plain-text bodies (BC II.5 TSV files, maps) for these routes only: registered inside
 * this plugin, so fastify's encapsulation keeps them away from every other route. Bytes
 * are decoded strictly: fastify's own text parser turns invalid UTF-8 into U+FFFD, and an
 * accession would then silently stop matching the gold.
 */
function registerTextParsers(app: FastifyInstance): void {
  // The root instance has fastify's default text/plain parser; this plugin's copy replaces it.
  addUtf8BodyParser(app, S.TEXT_BODY_TYPES, {
    invalid: () => ({
      error: new ApiError('invalid_utf8', 'the request body is not valid UTF-8; save the file as UTF-8 and send it again'),
    }),
  });
}

export function leaderboardRoutes(deps: LeaderboardRouteDeps): FastifyPluginAsync {
  return async (base) => {
    registerTextParsers(base);
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const handlers = new LeaderboardHandlers(deps);

    app.put('/challenges/:slug/gold/:task', { schema: S.PutGold, config: { access: 'admin' } }, handlers.putGold);
    app.get('/challenges/:slug/gold/:task/export/:format', { schema: S.ExportGold, config: { access: 'admin' } }, handlers.exportGold);
    app.put('/challenges/:slug/maps/:kind', { schema: S.PutMap, config: { access: 'admin' } }, handlers.putMap);
    // Teams upload runs, the organiser baselines (baseline=1): the handler tells them apart.
    app.post('/challenges/:slug/runs/:task', { schema: S.AddRun, config: { access: 'participant' } }, handlers.addRun);
    // Public: a published leaderboard needs no token; otherwise the handler asks for one.
    app.get('/challenges/:slug/scores/:task', { schema: S.Scores, config: { access: 'public' } }, handlers.scores);
    // Teams once the leaderboards are published: the handler checks.
    app.get('/challenges/:slug/runs/export', { schema: S.ExportRuns, config: { access: 'participant' } }, handlers.exportRuns);
  };
}
