// The pull protocol's routes: an agent takes an article on lease (long-polling), then
// answers it, reports its server's failure, or gives it back; it keeps the leases taken with
// keep-alive alive (renew). Each path with its schema
// (route-schemas.ts), who may call it, and the handler that answers it (route-handlers.ts).
// Only the owning team (or the organiser) may lease for a server or settle its leases;
// another team gets the 404 of a missing server. Every route counts against the lease rate
// limit per client; at most so many long-polls of a server and of a team wait at once
// (poll-limits.ts), and all of them answer at once when the app closes.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './route-schemas.ts';
import { PullHandlers, type PullRouteDeps } from './route-handlers.ts';

export function pullRoutes(deps: PullRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const handlers = new PullHandlers(deps);
    const rateLimit = { max: deps.config.leaseRequestsPerMinute, timeWindow: 60_000 };
    // Stopping: the long-polls answer at once (503 shutting_down) rather than hold the close up for their whole wait.
    app.addHook('preClose', (done) => {
      deps.leases.endPolls();
      done();
    });

    app.post('/servers/:id/leases', { schema: S.TakeLease, config: { access: 'owner', rateLimit } }, handlers.take);
    app.post('/servers/:id/leases/renew', { schema: S.RenewLeases, config: { access: 'owner', rateLimit } }, handlers.renew);
    app.post(
      '/leases/:lease/answer',
      { bodyLimit: deps.config.maxAnswerBytes, schema: S.AnswerLease, config: { access: 'owner', rateLimit } },
      handlers.answer,
    );
    app.post('/leases/:lease/fail', { schema: S.FailLease, config: { access: 'owner', rateLimit } }, handlers.fail);
    app.post('/leases/:lease/release', { schema: S.ReleaseLease, config: { access: 'owner', rateLimit } }, handlers.release);
  };
}
