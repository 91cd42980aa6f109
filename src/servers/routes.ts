import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { callerKey, type Principal } from '../auth/principal.ts';
import { canSee, knownPrincipalOf, principalOf, teamOf } from '../auth/access.ts';
import { notFound } from '../http/api-error.ts';
import { Described, NoContent, Open, preEncoded, responses, ServerIdParams, SlugParams, TaskListSchema } from '../http/schemas.ts';
import type { AnnotationServer } from './repository.ts';
import type { Changed } from './lifecycle.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { PROTOCOL_NAMES, PULL_PROTOCOL } from '../dispatch/annotators/registry.ts';
import { ProtocolField } from './protocol-field.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

const RegisterBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Where the meta-server sends articles; none for protocol pull.' }),
    ),
    tasks: TaskListSchema,
    method: Type.Optional(
      Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.:]{0,127}$', description: 'XML-RPC method name (default Annotator.getAnnotation).' }),
    ),
    concurrency: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Articles in flight at once for this server (default 1).' }),
    ),
    sendMetadata: Type.Optional(Type.Boolean({ description: 'Also send a trailing struct {article, tasks}.' })),
    protocol: ProtocolField,
  },
  { additionalProperties: false },
);

/** `?background=true`: answer at once and run the setup check afterwards (the status says `checkRunning`). */
const CheckQuery = Type.Object(
  {
    background: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: answer at once; the check runs afterwards and GET /api/servers/:id says checkRunning until it is stored',
      }),
    ),
  },
  { additionalProperties: false },
);

export { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';

/** An annotation server as the API shows it. */
const ServerAnswer = Open({
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
const ChangedServer = Open({
  ...ServerAnswer.properties,
  notice: Type.Optional(Type.String({ description: 'with 202: what was left for later' })),
});
const CheckedServer = Open({
  ...ServerAnswer.properties,
  check: Described(
    'the check just made {ok, reachable, at, ms, outcome, detail?, errors, warnings}; with ?background=true the previous one, or null',
  ),
  checkRunning: Type.Optional(Type.Boolean({ description: 'with ?background=true: the check runs after this answer' })),
});
const CheckStarted = Open({
  ...ServerAnswer.properties,
  checkRunning: Type.Boolean({
    description: 'the check runs after this answer (or was running already: one check at a time); GET /api/servers/:id shows its result',
  }),
  checkStartedAt: Type.Optional(Type.String({ description: 'ISO 8601: when the running check started' })),
});
const StatusQuery = Type.Object(
  {
    errorsLimit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]?$|^100$', description: 'failed attempts listed, 1 to 100 (default 100)' }),
    ),
    errorsOffset: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: 'newest failed attempts to skip (default 0)' })),
  },
  { additionalProperties: false },
);
const ServerStatus = Open({
  ...ServerAnswer.properties,
  checkRunning: Type.Boolean({
    description: 'a setup check of this server is running (in any API process) and its result is not stored yet',
  }),
  checkStartedAt: Type.Optional(Type.String({ description: 'ISO 8601: when the running check started (only while checkRunning)' })),
  progress: Open({ queued: Type.Integer(), active: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }),
  timing: Described('response times of answered attempts {p50Ms, p95Ms, meanMs, answered}'),
  errorsOffset: Type.Integer({ description: 'failed attempts skipped before the listed ones' }),
  errors: Described('the latest failed attempts, newest first: a page of them (errorsLimit, default 100, after errorsOffset)'),
  failuresByKind: Described(
    'failures by kind, with examples: {kind: {count, firstAt, lastAt, example: {article, articleId, detail, hint}}}, the most frequent first',
  ),
  histogram: Described('response times, bucketed'),
  reliability: Described('the reliability figures (src/reliability)'),
  agent: Type.Optional(Described('protocol pull only: its agents {connected, lastPollAt, lastLeaseAt, leasesHeld}')),
});

export function serverRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { servers } = ctx.repos;
    const lifecycle = ctx.servers;

    // Dashboards poll this page; its figures aggregate every attempt of the server. The whole
    // response is kept, encoded, for statusCacheMs per server and caller: a poll within that
    // time costs no database read (not even the server row) and no encoding. Changes made
    // through this API (start, pause, check, retry, delete) drop what is kept at once.
    const statusResponses = new LoadingCache<string, Buffer>(1024, ctx.config.statusCacheMs, ctx.config.statusCacheMs / 2, {
      maxBytes: ctx.config.cacheMaxBytes,
      bytesOf: (body) => body.length + 100,
    });
    const stopListening = lifecycle.onChange(() => statusResponses.invalidate());
    base.addHook('onClose', async () => {
      stopListening();
    });

    /** The server, if the caller may see it; another team gets the same 404 as for a missing one. */
    async function ownedServer(principal: Principal, id: number): Promise<AnnotationServer> {
      const server = await servers.byId(id);
      if (!server || !canSee(principal, server.teamId)) throw notFound(`annotation server ${id}`);
      return server;
    }

    /** The server as it is now: 200, or 202 with a notice when its queue step was left for later. */
    function changed(reply: FastifyReply, { server, queued }: Changed) {
      if (queued) return server;
      return reply.status(202).send({ ...server, notice: queuedLaterNotice('the change is stored') });
    }

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
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        const registered = await lifecycle.register(challenge, principal.teamId, request.body, {
          background: request.query.background === 'true',
          log: request.log,
        });
        reply.header('location', absoluteUrlOf(request, ctx.config, `/api/servers/${registered.server.id}`));
        if ('running' in registered) return reply.status(201).send({ ...registered.server, check: null, checkRunning: true });
        return reply.status(201).send({ ...registered.server, check: registered.check });
      },
    );

    app.get(
      '/challenges/:slug/servers',
      {
        schema: {
          tags: ['servers'],
          summary: 'Servers of a challenge (a team sees its own)',
          params: SlugParams,
          response: responses({ 200: Type.Array(ServerAnswer) }),
        },
        config: { access: 'participant' },
      },
      async (request) => {
        const principal = knownPrincipalOf(request);
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        return await servers.listByChallenge(challenge.id, principal.role === 'team' ? principal.teamId : undefined);
      },
    );

    app.get(
      '/servers/:id',
      {
        schema: {
          tags: ['servers'],
          summary: 'Server status: progress, timing, failures by kind, the latest failed attempts',
          params: ServerIdParams,
          querystring: StatusQuery,
          response: responses({ 200: ServerStatus }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const id = Number(request.params.id);
        const page = { limit: Number(request.query.errorsLimit ?? 100), offset: Number(request.query.errorsOffset ?? 0) };
        const body = (await statusResponses.get(`${id}\u0000${callerKey(principal)}\u0000${page.limit}\u0000${page.offset}`, async () => {
          const server = await ownedServer(principal, id);
          return Buffer.from(JSON.stringify(await lifecycle.status(server, page)));
        }))!;
        return reply.type('application/json; charset=utf-8').send(preEncoded<Static<typeof ServerStatus>>(body));
      },
    );

    app.post(
      '/servers/:id/start',
      {
        schema: {
          tags: ['servers'],
          summary: 'Start sending articles',
          params: ServerIdParams,
          response: responses({ 200: ChangedServer, 202: ChangedServer }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const server = await ownedServer(principalOf(request), Number(request.params.id));
        return changed(reply, await lifecycle.start(server));
      },
    );

    app.post(
      '/servers/:id/pause',
      {
        schema: {
          tags: ['servers'],
          summary: 'Stop sending articles (those in flight finish)',
          params: ServerIdParams,
          response: responses({ 200: ChangedServer, 202: ChangedServer }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const server = await ownedServer(principalOf(request), Number(request.params.id));
        return changed(reply, await lifecycle.pause(server));
      },
    );

    app.post(
      '/servers/:id/check',
      {
        schema: {
          tags: ['servers'],
          summary:
            'Call the server with the sample article now (202 at once with ?background=true, joining a check that runs; 409 without it while one runs)',
          params: ServerIdParams,
          querystring: CheckQuery,
          response: responses({ 200: CheckedServer, 202: CheckStarted }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const server = await ownedServer(principalOf(request), Number(request.params.id));
        const checked = await lifecycle.checkAgain(server, { background: request.query.background === 'true', log: request.log });
        if ('running' in checked)
          return reply.status(202).send({ ...server, checkRunning: true, checkStartedAt: checked.running.startedAt.toISOString() });
        return { ...server, check: checked.check };
      },
    );

    app.delete(
      '/servers/:id',
      {
        schema: {
          tags: ['servers'],
          summary: 'Delete a paused server with its queue, deliveries, attempts and answers',
          params: ServerIdParams,
          response: responses({ 204: NoContent }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const server = await ownedServer(principalOf(request), Number(request.params.id));
        await lifecycle.delete(server, request.log);
        return reply.status(204).send();
      },
    );

    app.post(
      '/servers/:id/retry-failed',
      {
        schema: {
          tags: ['servers'],
          summary: 'Send every failed article again',
          params: ServerIdParams,
          response: responses({
            200: Open({ ...ServerAnswer.properties, requeued: Type.Integer({ description: 'how many articles were sent again' }) }),
          }),
        },
        config: { access: 'owner' },
      },
      async (request) => {
        const server = await ownedServer(principalOf(request), Number(request.params.id));
        const { server: after, requeued } = await lifecycle.retryFailed(server);
        return { ...after, requeued };
      },
    );
  };
}
