// The pull protocol's routes: an agent takes an article on lease (long-polling), then
// answers it, reports its server's failure, or gives it back. Only the owning team (or the
// organiser) may lease for a server or settle its leases; another team gets the 404 of a
// missing server. Every route counts against the lease rate limit per client.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { canSee, principalOf } from '../auth/access.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import { Described, NoContent, Open, responses, ServerIdParams } from '../http/schemas.ts';
import { isPulled, PULL_PROTOCOL } from '../dispatch/annotators/registry.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import { LEASE_ID_PATTERN, type LeaseRecord } from './lease-records.ts';
import type { LeaseService } from './lease-service.ts';
import type { LeaseReceipt } from './lease-answer.ts';

/** The longest a lease request waits for work. */
const MAX_WAIT_SECONDS = 60;

const LeaseParams = Type.Object({
  lease: Type.String({ pattern: LEASE_ID_PATTERN, description: 'the lease id, as the lease answered it' }),
});
const WaitQuery = Type.Object(
  {
    wait: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}(\\.[0-9]{1,3})?$',
        description: `seconds to wait for work before answering 204 (0–${MAX_WAIT_SECONDS}, default 30)`,
      }),
    ),
  },
  { additionalProperties: false },
);
const Offer = Open({
  lease: Type.String({ description: 'the lease id: answer, fail or give back the article with it' }),
  deadline: Type.String({ description: 'ISO 8601: an answer after this is refused and the attempt counts as a timeout' }),
  article: Open(
    {
      id: Type.Optional(Type.String({ description: 'the article id (servers registered with sendMetadata)' })),
      text: Type.String(),
      given: Type.Optional(Type.String({ description: 'the given annotations (COREF servers)' })),
      tasks: Type.Array(Type.String(), { description: 'the tasks to answer' }),
    },
    "the JSON protocol's request",
  ),
});
const Receipt = Open({
  stored: Type.Boolean(),
  outcome: Type.String({ description: 'ok, or why the answer was not stored' }),
  detail: Type.Optional(Type.String()),
  attempt: Type.Integer(),
  final: Type.Boolean({ description: 'no attempt is left: the article is not offered again' }),
  errors: Described('the first validation errors {path, message}'),
  errorCount: Type.Integer(),
  warnings: Described('the first validation warnings {path, message}'),
  warningCount: Type.Integer(),
});
const FailBody = Type.Object(
  { message: Type.String({ minLength: 1, maxLength: 4000, description: "what went wrong, as the team's server said it" }) },
  { additionalProperties: false },
);
const AnswerBody = Type.Object(
  {},
  { additionalProperties: true, description: 'the JSON protocol\'s answer: an object with the XML-RPC answer\'s keys (or {"error": …})' },
);

export function pullRoutes(ctx: AppContext, leases: LeaseService): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { servers, challenges } = ctx.repos;
    const rateLimit = { max: ctx.config.leaseRequestsPerMinute, timeWindow: 60_000 };

    async function pullServer(request: FastifyRequest, id: number): Promise<AnnotationServer> {
      const server = await servers.byId(id);
      if (!server || !canSee(principalOf(request), server.teamId)) throw notFound(`annotation server ${id}`);
      if (!isPulled(server)) {
        throw conflict(
          `server ${id} has protocol "${server.protocol}": the meta-server sends it the articles; leases are for servers registered with protocol "${PULL_PROTOCOL}"`,
        );
      }
      return server;
    }

    /** The lease, claimed by this request: it alone settles it. Unknown, settled or expired: 409 and nothing stored. */
    async function claimedLease(request: FastifyRequest, id: string): Promise<{ lease: LeaseRecord; server: AnnotationServer }> {
      const gone = () =>
        new ApiError(
          'lease_gone',
          `lease ${id} is not held: it is unknown, already answered, given back or expired; nothing was stored — take a new lease`,
        );
      const lease = await leases.records.peek(id);
      if (!lease) throw gone();
      const server = await servers.byId(lease.serverId);
      if (!server || !canSee(principalOf(request), server.teamId)) throw notFound(`lease ${id}`);
      if (!(await leases.records.claim(lease))) throw gone();
      if (Date.now() > lease.deadline) {
        await leases.expire(lease);
        throw new ApiError(
          'lease_gone',
          `lease ${id} expired at ${new Date(lease.deadline).toISOString()}: the attempt counts as a timeout and the article is offered again; nothing was stored`,
        );
      }
      return { lease, server };
    }

    function receiptReply(receipt: LeaseReceipt): LeaseReceipt {
      if (receipt.outcome === 'closed') throw new ApiError('closed', receipt.detail ?? 'the challenge is closed', receipt);
      if (receipt.outcome === 'ok') return receipt;
      const left = receipt.final ? 'no attempt is left' : 'the article is offered again after the back-off';
      throw new ApiError('answer_refused', `the answer was not stored (${receipt.outcome}): ${receipt.detail ?? ''}; ${left}`, receipt);
    }

    app.post(
      '/servers/:id/leases',
      {
        schema: {
          tags: ['pull'],
          summary: 'Take an article on lease for a pull server (its agent); waits up to ?wait seconds, 204 when there is no work',
          params: ServerIdParams,
          querystring: WaitQuery,
          response: responses({ 200: Offer, 204: NoContent }),
        },
        config: { access: 'owner', rateLimit },
      },
      async (request, reply) => {
        const id = Number(request.params.id);
        await pullServer(request, id);
        const wait = request.query.wait === undefined ? 30 : Number(request.query.wait);
        if (wait > MAX_WAIT_SECONDS)
          throw new ApiError('bad_request', `wait is at most ${MAX_WAIT_SECONDS} seconds; ask again after a 204`);
        let left = false;
        reply.raw.once('close', () => {
          left = true;
        });
        const offer = await leases.take(
          async () => {
            const server = await servers.byId(id);
            const challenge = server ? await challenges.byId(server.challengeId) : null;
            return server && challenge ? { server, challenge } : null;
          },
          wait * 1000,
          () => left,
        );
        if (!offer) return reply.status(204).send();
        request.log.debug({ serverId: id, lease: offer.lease.slice(0, 6) }, 'article leased');
        return offer;
      },
    );

    app.post(
      '/leases/:lease/answer',
      {
        bodyLimit: ctx.config.maxAnswerBytes,
        schema: {
          tags: ['pull'],
          summary:
            "Answer a leased article with the JSON protocol's answer; judged and stored exactly once (422 with the errors when not valid)",
          params: LeaseParams,
          body: AnswerBody,
          response: responses({ 200: Receipt }),
        },
        config: { access: 'owner', rateLimit },
      },
      async (request) => {
        const { lease, server } = await claimedLease(request, request.params.lease);
        const challenge = (await challenges.byId(server.challengeId))!;
        return receiptReply(await leases.answer(lease, server, challenge, Buffer.from(JSON.stringify(request.body))));
      },
    );

    app.post(
      '/leases/:lease/fail',
      {
        schema: {
          tags: ['pull'],
          summary: "Report that the team's server failed on a leased article: recorded as a fault attempt",
          params: LeaseParams,
          body: FailBody,
          response: responses({ 200: Receipt }),
        },
        config: { access: 'owner', rateLimit },
      },
      async (request) => {
        const { lease } = await claimedLease(request, request.params.lease);
        return await leases.fail(lease, request.body.message);
      },
    );

    app.post(
      '/leases/:lease/release',
      {
        schema: {
          tags: ['pull'],
          summary: 'Give a leased article back (the agent is stopping): not a failed attempt; it is offered again at once',
          params: LeaseParams,
          response: responses({ 204: NoContent }),
        },
        config: { access: 'owner', rateLimit },
      },
      async (request, reply) => {
        const { lease } = await claimedLease(request, request.params.lease);
        await leases.release(lease);
        return reply.status(204).send();
      },
    );
  };
}
