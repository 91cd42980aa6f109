// The servers' routes: each path with its schema (route-schemas.ts), who may call it, and
// the handler that answers it (route-handlers.ts). The plugin takes what the handlers need,
// by name, from the composition root.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './route-schemas.ts';
import { ServerHandlers, type ServerRouteDeps } from './route-handlers.ts';

export function serverRoutes(deps: ServerRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const handlers = new ServerHandlers(deps);
    base.addHook('onClose', async () => handlers.close());

    app.post('/challenges/:slug/servers', { schema: S.RegisterServer, config: { access: 'team' } }, handlers.register);
    app.get('/challenges/:slug/servers', { schema: S.ChallengeServers, config: { access: 'participant' } }, handlers.listOfChallenge);
    app.get('/servers/:id', { schema: S.ServerStatusPage, config: { access: 'owner' } }, handlers.status);
    app.post('/servers/:id/start', { schema: S.StartServer, config: { access: 'owner' } }, handlers.start);
    app.post('/servers/:id/pause', { schema: S.PauseServer, config: { access: 'owner' } }, handlers.pause);
    app.post('/servers/:id/check', { schema: S.CheckServer, config: { access: 'owner' } }, handlers.check);
    app.delete('/servers/:id', { schema: S.DeleteServer, config: { access: 'owner' } }, handlers.delete);
    app.post('/servers/:id/retry-failed', { schema: S.RetryFailed, config: { access: 'owner' } }, handlers.retryFailed);
  };
}
