// What each of the pull protocol's routes does (routes.ts registers them, route-schemas.ts
// types them): find the pull server or the lease, check that the caller may touch it, hand
// it to the lease service and map its receipt to a status code. Leasing itself is
// lease-service.ts.
import { shuttingDown } from '../http/unavailable.ts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { canSee, principalOf } from '../auth/access.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { isPulled, PULL_PROTOCOL } from '../dispatch/annotators/registry.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import type { LeaseRecord } from './lease-records.ts';
import type { LeaseService } from './lease-service.ts';
import type { LeaseReceipt } from './lease-answer.ts';
import { MAX_WAIT_SECONDS } from './route-schemas.ts';
import type * as S from './route-schemas.ts';
import type { ServerWithChallenge } from '../servers/with-challenge.ts';
import { PullLookups } from './pull-lookups.ts';
import { PollLimits } from './poll-limits.ts';

/** What the pull protocol's routes need, handed over by the composition root. */
export interface PullRouteDeps {
  config: Pick<Config, 'leaseRequestsPerMinute' | 'maxAnswerBytes' | 'leaseKeepAliveSeconds' | 'leasePollsPerTeam'>;
  challenges: Pick<ChallengeRepository, 'byId'>;
  servers: Pick<ServerRepository, 'byId'>;
  leases: Pick<LeaseService, 'records' | 'take' | 'answer' | 'fail' | 'release' | 'expire' | 'renew' | 'endPolls' | 'pollsEnded'>;
}

/** The answer to a settled lease: its receipt when stored, otherwise the error that says why not. */
function receiptReply<R extends LeaseReceipt>(receipt: R): R {
  if (receipt.outcome === 'closed') throw new ApiError('closed', receipt.detail ?? 'the challenge is closed', receipt);
  if (receipt.outcome === 'ok') return receipt;
  const left = receipt.final ? 'no attempt is left' : 'the article is offered again after the back-off';
  throw new ApiError('answer_refused', `the answer was not stored (${receipt.outcome}): ${receipt.detail ?? ''}; ${left}`, receipt);
}

export class PullHandlers {
  private readonly lookups: PullLookups;
  private readonly limits: PollLimits;

  constructor(private readonly deps: PullRouteDeps) {
    this.lookups = new PullLookups(deps);
    this.limits = new PollLimits(deps.config.leasePollsPerTeam);
  }

  /** The server, if the caller may see it and it pulls its articles; another team gets the 404 of a missing one. */
  private async pullServer(request: FastifyRequest, id: number): Promise<AnnotationServer> {
    const server = (await this.lookups.get(id))?.server;
    if (!server || !canSee(principalOf(request), server.teamId)) throw notFound(`annotation server ${id}`);
    if (!isPulled(server)) {
      throw conflict(
        `server ${id} has protocol "${server.protocol}": the meta-server sends it the articles; leases are for servers registered with protocol "${PULL_PROTOCOL}"`,
      );
    }
    return server;
  }

  /** The lease, claimed by this request: it alone settles it. Unknown, settled or expired: 409 and nothing stored. */
  private async claimedLease(request: FastifyRequest, id: string): Promise<{ lease: LeaseRecord } & ServerWithChallenge> {
    const { leases } = this.deps;
    const gone = () =>
      new ApiError(
        'lease_gone',
        `lease ${id} is not held: it is unknown, already answered, given back or expired; nothing was stored — take a new lease`,
      );
    // Read and claimed at once when the caller is the lease's team (or the organiser); another
    // team's is only read (404 below, the lease left held), as is one kept without its team.
    const principal = principalOf(request);
    const teamId = principal.role === 'admin' ? null : principal.role === 'team' ? principal.teamId : -1;
    const read = await leases.records.readAndClaim(id, teamId);
    if (!read) throw gone();
    const { lease, claimed } = read;
    const found = await this.lookups.get(lease.serverId);
    if (!found || !canSee(principal, found.server.teamId)) throw notFound(`lease ${id}`);
    if (!claimed && !(await leases.records.claim(lease))) throw gone();
    if (Date.now() > lease.deadline) {
      await leases.expire(lease);
      throw new ApiError(
        'lease_gone',
        `lease ${id} expired at ${new Date(lease.deadline).toISOString()}: the attempt counts as a timeout and the article is offered again; nothing was stored`,
      );
    }
    return { lease, ...found };
  }

  readonly take: RouteHandler<typeof S.TakeLease> = async (request, reply) => {
    const { leases } = this.deps;
    const id = Number(request.params.id);
    const server = await this.pullServer(request, id);
    const wait = request.query.wait === undefined ? 30 : Number(request.query.wait);
    if (wait > MAX_WAIT_SECONDS) throw new ApiError('bad_request', `wait is at most ${MAX_WAIT_SECONDS} seconds; ask again after a 204`);
    if (leases.pollsEnded) throw shuttingDown(reply);
    const release = this.limits.admit(server);
    let left = false;
    reply.raw.once('close', () => {
      left = true;
    });
    const keepAliveMs = request.query.keepAlive === '1' ? this.deps.config.leaseKeepAliveSeconds * 1000 : 0;
    try {
      const offer = await leases.take(
        () => this.lookups.get(id),
        wait * 1000,
        () => left,
        keepAliveMs,
      );
      if (!offer) {
        if (leases.pollsEnded) throw shuttingDown(reply);
        return reply.status(204).send();
      }
      request.log.debug({ serverId: id, lease: offer.lease.slice(0, 6) }, 'article leased');
      // Serialized natively rather than by the route's schema serializer, which escapes the
      // article's text (20 KB and more) character by character; the offer has the schema's shape.
      reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
      return offer;
    } finally {
      release();
    }
  };

  readonly renew: RouteHandler<typeof S.RenewLeases> = async (request) => {
    const id = Number(request.params.id);
    await this.pullServer(request, id);
    const { localServer } = request.body;
    if (localServer)
      await this.deps.leases.records.reportLocal(id, { state: localServer.state, detail: localServer.detail ?? '', at: Date.now() });
    return { held: await this.deps.leases.renew(id, request.body.leases) };
  };

  readonly answer: RouteHandler<typeof S.AnswerLease> = async (request, reply) => {
    // When the answer came: the attempt's time ends there, not after the lookups below (lease-answer.ts).
    const arrivedAt = Math.round(Date.now() - reply.elapsedTime);
    const { lease, server, challenge } = await this.claimedLease(request, request.params.lease);
    const body = Buffer.from(JSON.stringify(request.body));
    const next = request.query.next === '1';
    const receipt = receiptReply(await this.deps.leases.answer(lease, server, challenge, body, { arrivedAt, next }));
    // The next lease's article, as take's: serialized natively (see take).
    if (receipt.next) reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
    return receipt;
  };

  readonly fail: RouteHandler<typeof S.FailLease> = async (request) => {
    const { lease } = await this.claimedLease(request, request.params.lease);
    return await this.deps.leases.fail(lease, request.body.message);
  };

  readonly release: RouteHandler<typeof S.ReleaseLease> = async (request, reply) => {
    const { lease } = await this.claimedLease(request, request.params.lease);
    await this.deps.leases.release(lease);
    return reply.status(204).send();
  };
}
