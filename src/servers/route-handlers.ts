// What each of the servers' routes does (routes.ts registers them, route-schemas.ts types
// them): find the server, check that the caller may touch it, ask the lifecycle, and map
// its answer to a status code. Nothing here decides a server's life: that is lifecycle.ts.
import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import type { Config } from '../config.ts';
import { callerKey, type Principal } from '../auth/principal.ts';
import { canSee, knownPrincipalOf, principalOf, teamOf } from '../auth/access.ts';
import { notFound } from '../http/api-error.ts';
import { preEncoded } from '../http/schemas.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { absoluteUrlOf } from '../http/public-url.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { AnnotationServer, ServerRepository } from './repository.ts';
import type { Changed, ServerLifecycle } from './lifecycle.ts';
import type * as S from './route-schemas.ts';

/** What the servers' routes need, handed over by the composition root. */
export interface ServerRouteDeps {
  config: Pick<Config, 'statusCacheMs' | 'cacheMaxBytes' | 'publicUrl'>;
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  servers: Pick<ServerRepository, 'byId' | 'listByChallenge'>;
  lifecycle: ServerLifecycle;
}

/** The server as it is now: 200, or 202 with a notice when its queue step was left for later. */
function changed(reply: FastifyReply, { server, queued }: Changed) {
  if (queued) return server;
  return reply.status(202).send({ ...server, notice: queuedLaterNotice('the change is stored') });
}

export class ServerHandlers {
  /**
   * Dashboards poll the status page; its figures aggregate every attempt of the server. The
   * whole response is kept, encoded, for statusCacheMs per server and caller: a poll within
   * that time costs no database read (not even the server row) and no encoding. Changes made
   * through the lifecycle (start, pause, check, retry, delete) drop what is kept at once.
   */
  private readonly statusResponses: LoadingCache<string, Buffer>;
  private readonly stopListening: () => void;

  constructor(private readonly deps: ServerRouteDeps) {
    const { statusCacheMs, cacheMaxBytes } = deps.config;
    this.statusResponses = new LoadingCache<string, Buffer>(1024, statusCacheMs, statusCacheMs / 2, {
      maxBytes: cacheMaxBytes,
      bytesOf: (body) => body.length + 100,
    });
    this.stopListening = deps.lifecycle.onChange(() => this.statusResponses.invalidate());
  }

  /** Stops following the lifecycle's changes (when the app closes). */
  close(): void {
    this.stopListening();
  }

  /** The server, if the caller may see it; another team gets the same 404 as for a missing one. */
  private async ownedServer(principal: Principal, id: number): Promise<AnnotationServer> {
    const server = await this.deps.servers.byId(id);
    if (!server || !canSee(principal, server.teamId)) throw notFound(`annotation server ${id}`);
    return server;
  }

  readonly register: RouteHandler<typeof S.RegisterServer> = async (request, reply) => {
    const principal = teamOf(request);
    const challenge = await challengeOf(this.deps.challenges, request.params);
    const registered = await this.deps.lifecycle.register(challenge, principal.teamId, request.body, {
      background: request.query.background === 'true',
      log: request.log,
    });
    reply.header('location', absoluteUrlOf(request, this.deps.config, `/api/servers/${registered.server.id}`));
    if ('running' in registered) return reply.status(201).send({ ...registered.server, check: null, checkRunning: true });
    return reply.status(201).send({ ...registered.server, check: registered.check });
  };

  readonly listOfChallenge: RouteHandler<typeof S.ChallengeServers> = async (request) => {
    const principal = knownPrincipalOf(request);
    const challenge = await challengeOf(this.deps.challenges, request.params);
    return await this.deps.servers.listByChallenge(challenge.id, principal.role === 'team' ? principal.teamId : undefined);
  };

  readonly status: RouteHandler<typeof S.ServerStatusPage> = async (request, reply) => {
    const principal = principalOf(request);
    const id = Number(request.params.id);
    const page = { limit: Number(request.query.errorsLimit ?? 100), offset: Number(request.query.errorsOffset ?? 0) };
    const key = `${id}\u0000${callerKey(principal)}\u0000${page.limit}\u0000${page.offset}`;
    const body = (await this.statusResponses.get(key, async () => {
      const server = await this.ownedServer(principal, id);
      return Buffer.from(JSON.stringify(await this.deps.lifecycle.status(server, page)));
    }))!;
    return reply.type('application/json; charset=utf-8').send(preEncoded<Static<typeof S.ServerStatus>>(body));
  };

  readonly start: RouteHandler<typeof S.StartServer> = async (request, reply) => {
    const server = await this.ownedServer(principalOf(request), Number(request.params.id));
    return changed(reply, await this.deps.lifecycle.start(server));
  };

  readonly pause: RouteHandler<typeof S.PauseServer> = async (request, reply) => {
    const server = await this.ownedServer(principalOf(request), Number(request.params.id));
    return changed(reply, await this.deps.lifecycle.pause(server));
  };

  readonly check: RouteHandler<typeof S.CheckServer> = async (request, reply) => {
    const server = await this.ownedServer(principalOf(request), Number(request.params.id));
    const checked = await this.deps.lifecycle.checkAgain(server, { background: request.query.background === 'true', log: request.log });
    if ('running' in checked)
      return reply.status(202).send({ ...server, checkRunning: true, checkStartedAt: checked.running.startedAt.toISOString() });
    return { ...server, check: checked.check };
  };

  readonly delete: RouteHandler<typeof S.DeleteServer> = async (request, reply) => {
    const server = await this.ownedServer(principalOf(request), Number(request.params.id));
    await this.deps.lifecycle.delete(server, request.log);
    return reply.status(204).send();
  };

  readonly retryFailed: RouteHandler<typeof S.RetryFailed> = async (request) => {
    const server = await this.ownedServer(principalOf(request), Number(request.params.id));
    const { server: after, requeued } = await this.deps.lifecycle.retryFailed(server);
    return { ...after, requeued };
  };
}
