import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { callerKey, type Principal } from '../auth/principal.ts';
import { canSee, knownPrincipalOf, principalOf, teamOf } from '../auth/access.ts';
import { badRequest, conflict, notFound } from '../http/api-error.ts';
import { Described, NoContent, Open, preEncoded, responses, ServerIdParams, SlugParams, TaskListSchema } from '../http/schemas.ts';
import { SetupChecks } from './setup-checks.ts';
import type { AnnotationServer } from './repository.ts';
import { resolvedUrlProblem } from '../http/url-policy.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';
import { DEFAULT_PROTOCOL, isPulled, PROTOCOL_NAMES, PULL_PROTOCOL } from '../dispatch/annotators/registry.ts';
import { ProtocolField, protocolProblem } from './protocol-field.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

const RegisterBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Where the meta-server sends articles; none for protocol pull.' })),
    tasks: TaskListSchema,
    method: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.:]{0,127}$', description: 'XML-RPC method name (default Annotator.getAnnotation).' })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Articles in flight at once for this server (default 1).' })),
    sendMetadata: Type.Optional(Type.Boolean({ description: 'Also send a trailing struct {article, tasks}.' })),
    protocol: ProtocolField,
  },
  { additionalProperties: false },
);

/** `?background=true`: answer at once and run the setup check afterwards (the status says `checkRunning`). */
const CheckQuery = Type.Object(
  { background: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: answer at once; the check runs afterwards and GET /api/servers/:id says checkRunning until it is stored' })) },
  { additionalProperties: false },
);

export { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';

/** An annotation server as the API shows it. */
export const ServerAnswer = Open({
  id: Type.Integer(),
  challengeId: Type.Integer(),
  challenge: Type.String({ description: 'the challenge slug' }),
  teamId: Type.Integer(),
  team: Type.String(),
  name: Type.String(),
  url: Type.String({ description: 'where articles are sent; empty for protocol pull' }),
  tasks: Type.Array(Type.String()),
  method: Type.String({ description: 'the XML-RPC method name (used by protocol xmlrpc only)' }),
  protocol: Type.String({ description: `the annotator protocol it speaks: ${[...PROTOCOL_NAMES, PULL_PROTOCOL].join(', ')}` }),
  concurrency: Type.Integer(),
  sendMetadata: Type.Boolean(),
  state: Type.String({ description: 'paused or active' }),
  check: Described('the latest check with the sample article {ok, reachable, at, ms, outcome, detail?, errors, warnings}, or null'),
  createdAt: Described('ISO 8601'),
  runName: Type.String({ description: 'the name its answers are published under (T<team id>_S<n>)' }),
});
const ChangedServer = Open({ ...ServerAnswer.properties, notice: Type.Optional(Type.String({ description: 'with 202: what was left for later' })) });
const CheckedServer = Open({
  ...ServerAnswer.properties,
  check: Described('the check just made {ok, reachable, at, ms, outcome, detail?, errors, warnings}; with ?background=true the previous one, or null'),
  checkRunning: Type.Optional(Type.Boolean({ description: 'with ?background=true: the check runs after this answer' })),
});
const CheckStarted = Open({
  ...ServerAnswer.properties,
  checkRunning: Type.Boolean({ description: 'the check runs after this answer (or was running already: one check at a time); GET /api/servers/:id shows its result' }),
  checkStartedAt: Type.Optional(Type.String({ description: 'ISO 8601: when the running check started' })),
});
const StatusQuery = Type.Object(
  {
    errorsLimit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]?$|^100$', description: 'failed attempts listed, 1 to 100 (default 100)' })),
    errorsOffset: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: 'newest failed attempts to skip (default 0)' })),
  },
  { additionalProperties: false },
);
const ServerStatus = Open({
  ...ServerAnswer.properties,
  checkRunning: Type.Boolean({ description: 'a setup check of this server is running (in any API process) and its result is not stored yet' }),
  checkStartedAt: Type.Optional(Type.String({ description: 'ISO 8601: when the running check started (only while checkRunning)' })),
  progress: Open({ queued: Type.Integer(), active: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }),
  timing: Described('response times of answered attempts {p50Ms, p95Ms, meanMs, answered}'),
  errorsOffset: Type.Integer({ description: 'failed attempts skipped before the listed ones' }),
  errors: Described('the latest failed attempts, newest first: a page of them (errorsLimit, default 100, after errorsOffset)'),
  failuresByKind: Described('failures by kind, with examples: {kind: {count, firstAt, lastAt, example: {article, articleId, detail, hint}}}, the most frequent first'),
  histogram: Described('response times, bucketed'),
  reliability: Described('the reliability figures (src/reliability)'),
  agent: Type.Optional(Described('protocol pull only: its agents {connected, lastPollAt, lastLeaseAt, leasesHeld}')),
});

export function serverRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { challenges, servers, serverStatus } = ctx.repos;

    // Dashboards poll this page; its figures aggregate every attempt of the server. The whole
    // response is kept, encoded, for statusCacheMs per server and caller: a poll within that
    // time costs no database read (not even the server row) and no encoding. Changes made
    // through this API (start, pause, check, retry, delete) drop what is kept at once.
    const statusResponses = new LoadingCache<string, Buffer>(1024, ctx.config.statusCacheMs, ctx.config.statusCacheMs / 2, {
      maxBytes: ctx.config.cacheMaxBytes,
      bytesOf: (body) => body.length + 100,
    });
    async function loadStatusFigures(serverId: number, page: { limit: number; offset: number }) {
      const [progress, timing, errors, failuresByKind, histogram, reliability] = await Promise.all([
        serverStatus.progress(serverId),
        serverStatus.timing(serverId),
        serverStatus.errors(serverId, page.limit, page.offset),
        serverStatus.failuresByKind(serverId),
        serverStatus.histogram(serverId),
        ctx.repos.reliability.server(serverId),
      ]);
      return { progress, timing, failuresByKind, errorsOffset: page.offset, errors, histogram, reliability };
    }

    /** The server, if the caller may see it; another team gets the same 404 as for a missing one. */
    async function ownedServer(principal: Principal, id: number): Promise<AnnotationServer> {
      const server = await servers.byId(id);
      if (!server || !canSee(principal, server.teamId)) throw notFound(`annotation server ${id}`);
      return server;
    }

    /** ownedServer with its challenge, for a change: refused (409) while the challenge is closed. */
    async function changeableServer(principal: Principal, id: number, what: string) {
      const server = await ownedServer(principal, id);
      const challenge = (await challenges.byId(server.challengeId))!;
      refuseWhenClosed(challenge, what);
      return { server, challenge };
    }

    /** The server as it is now: 200, or 202 with a notice when its queue step was left for later. */
    async function serverAfter(reply: FastifyReply, id: number, queued: boolean) {
      statusResponses.invalidate();
      const server = (await servers.byId(id))!;
      if (queued) return server;
      return reply.status(202).send({ ...server, notice: queuedLaterNotice('the change is stored') });
    }

    // Setup checks are claimed in the database, so every API process shows a running one and
    // none calls the server a second time meanwhile (setup-checks.ts).
    const checks = new SetupChecks(ctx, () => statusResponses.invalidate());
    base.addHook('onClose', async () => {
      await checks.close().catch((err: unknown) => ctx.log.warn({ err }, 'could not mark this process\'s setup checks as ended'));
    });

    app.post(
      '/challenges/:slug/servers',
      {
        schema: {
          tags: ['servers'],
          summary: 'Register an annotation server (team); it is checked (at once, or afterwards with ?background=true) and starts paused',
          params: SlugParams,
          body: RegisterBody,
          querystring: CheckQuery,
          response: responses({ 201: CheckedServer }),
        },
        config: { access: 'team' },
      },
      async (request, reply) => {
        const principal = teamOf(request);
        const challenge = await challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        refuseWhenClosed(challenge, 'no servers can be registered');
        const body = request.body;
        const unknown = body.tasks.filter((t) => !challenge.tasks.includes(t));
        if (unknown.length > 0) throw badRequest(`challenge "${challenge.slug}" has no task ${unknown.join(', ')}; its tasks are ${challenge.tasks.join(', ')}`);
        const protocol = body.protocol ?? DEFAULT_PROTOCOL;
        const unfit = protocolProblem(protocol, body);
        if (unfit) throw badRequest(unfit);
        // A pull server is never connected to, so the URL policy has nothing to judge.
        const problem = body.url === undefined ? '' : await resolvedUrlProblem(body.url, ctx.config.publicUrlsOnly);
        if (problem) throw badRequest(`the server URL cannot be used: ${problem}`);

        const created = await servers.register(
          {
            challengeId: challenge.id,
            teamId: principal.teamId,
            name: body.name,
            url: body.url ?? '',
            tasks: body.tasks,
            method: body.method ?? DEFAULT_METHOD,
            protocol,
            concurrency: body.concurrency ?? 1,
            sendMetadata: body.sendMetadata ?? false,
          },
          challenge.serversPerTeam,
        );
        if (created === 'limit') throw conflict(`your team already has ${challenge.serversPerTeam} servers in "${challenge.slug}", the most allowed; delete or reuse one`);
        if (created === 'duplicate') throw conflict(`your team already has a server named "${body.name}" in "${challenge.slug}"`);
        await ctx.dispatch.serverRegistered(created);
        reply.header('location', absoluteUrlOf(request, ctx.config, `/api/servers/${created.id}`));
        if (request.query.background === 'true') {
          await checks.startInBackground(created, request.log);
          request.log.info({ serverId: created.id, team: principal.teamName }, 'annotation server registered; its check runs');
          return reply.status(201).send({ ...created, check: null, checkRunning: true });
        }
        const check = await checks.runNow(created, request.log);
        request.log.info({ serverId: created.id, team: principal.teamName, check: check.outcome }, 'annotation server registered');
        return reply.status(201).send({ ...created, check });
      },
    );

    app.get('/challenges/:slug/servers', { schema: { tags: ['servers'], summary: 'Servers of a challenge (a team sees its own)', params: SlugParams, response: responses({ 200: Type.Array(ServerAnswer) }) }, config: { access: 'participant' } }, async (request) => {
      const principal = knownPrincipalOf(request);
      const challenge = await challenges.bySlug(request.params.slug);
      if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
      return await servers.listByChallenge(challenge.id, principal.role === 'team' ? principal.teamId : undefined);
    });

    app.get('/servers/:id', { schema: { tags: ['servers'], summary: 'Server status: progress, timing, failures by kind, the latest failed attempts', params: ServerIdParams, querystring: StatusQuery, response: responses({ 200: ServerStatus }) }, config: { access: 'owner' } }, async (request, reply) => {
      const principal = principalOf(request);
      const id = Number(request.params.id);
      const page = { limit: Number(request.query.errorsLimit ?? 100), offset: Number(request.query.errorsOffset ?? 0) };
      const body = (await statusResponses.get(`${id}\u0000${callerKey(principal)}\u0000${page.limit}\u0000${page.offset}`, async () => {
        const server = await ownedServer(principal, id);
        const [running, figures] = await Promise.all([checks.running(server.id), loadStatusFigures(server.id, page)]);
        const check = running ? { checkRunning: true, checkStartedAt: running.startedAt.toISOString() } : { checkRunning: false };
        const agent = isPulled(server) ? await ctx.leases?.agentStatus(server.id) : undefined;
        return Buffer.from(JSON.stringify({ ...server, ...check, ...figures, ...(agent ? { agent } : {}) }));
      }))!;
      return reply.type('application/json; charset=utf-8').send(preEncoded<Static<typeof ServerStatus>>(body));
    });

    app.post('/servers/:id/start', { schema: { tags: ['servers'], summary: 'Start sending articles', params: ServerIdParams, response: responses({ 200: ChangedServer, 202: ChangedServer }) }, config: { access: 'owner' } }, async (request, reply) => {
      const { server, challenge } = await changeableServer(principalOf(request), Number(request.params.id), 'its servers cannot be started');
      return await serverAfter(reply, server.id, await ctx.dispatch.start(server, challenge));
    });

    app.post('/servers/:id/pause', { schema: { tags: ['servers'], summary: 'Stop sending articles (those in flight finish)', params: ServerIdParams, response: responses({ 200: ChangedServer, 202: ChangedServer }) }, config: { access: 'owner' } }, async (request, reply) => {
      const { server } = await changeableServer(principalOf(request), Number(request.params.id), 'its servers cannot be paused');
      return await serverAfter(reply, server.id, await ctx.dispatch.pause(server));
    });

    app.post(
      '/servers/:id/check',
      {
        schema: {
          tags: ['servers'],
          summary: 'Call the server with the sample article now (202 at once with ?background=true, joining a check that runs; 409 without it while one runs)',
          params: ServerIdParams,
          querystring: CheckQuery,
          response: responses({ 200: CheckedServer, 202: CheckStarted }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const { server } = await changeableServer(principalOf(request), Number(request.params.id), 'its servers are not called');
        if (request.query.background === 'true') {
          const running = await checks.startInBackground(server, request.log);
          return reply.status(202).send({ ...server, checkRunning: true, checkStartedAt: running.startedAt.toISOString() });
        }
        const check = await checks.runNow(server, request.log);
        return { ...server, check };
      },
    );

    app.delete('/servers/:id', { schema: { tags: ['servers'], summary: 'Delete a paused server with its queue, deliveries, attempts and answers', params: ServerIdParams, response: responses({ 204: NoContent }) }, config: { access: 'owner' } }, async (request, reply) => {
      const { server } = await changeableServer(principalOf(request), Number(request.params.id), 'its servers cannot be deleted');
      // Only while paused: an active server may have a request in flight whose answer would
      // then be stored for a server that no longer exists.
      if (server.state !== 'paused') throw conflict(`server ${server.id} is active; pause it first, then delete it`);
      ctx.dispatch.requireQueues('the server was not deleted');
      // Rows first: if another record still needs the server (say, a test-suite run), nothing
      // is removed and the queue keeps its jobs, so the server stays usable.
      try {
        await servers.deleteWithHistory(server.id);
      } catch (err) {
        if ((err as { code?: string }).code === '23503') throw conflict(`server ${server.id} is still referenced by other records (${(err as { table?: string }).table ?? 'another table'}); it cannot be deleted`);
        throw err;
      }
      await ctx.dispatch.removeQueue(server.id);
      statusResponses.invalidate();
      request.log.info({ serverId: server.id }, 'annotation server deleted');
      return reply.status(204).send();
    });

    app.post('/servers/:id/retry-failed', { schema: { tags: ['servers'], summary: 'Send every failed article again', params: ServerIdParams, response: responses({ 200: Open({ ...ServerAnswer.properties, requeued: Type.Integer({ description: 'how many articles were sent again' }) }) }) }, config: { access: 'owner' } }, async (request) => {
      const { server, challenge } = await changeableServer(principalOf(request), Number(request.params.id), 'failed articles are not sent again');
      const requeued = await ctx.dispatch.retryFailed(server, challenge);
      statusResponses.invalidate();
      return { ...(await servers.byId(server.id))!, requeued };
    });
  };
}
