// The schemas of the servers' routes (routes.ts): what each route takes and answers, as
// fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the bodies and answers they share come first.
import { Type } from 'typebox';
import { Described, NoContent, Open, responses, ServerIdParams, SlugParams, TaskListSchema } from '../http/schemas.ts';
import { PROTOCOL_NAMES, PULL_PROTOCOL } from '../dispatch/annotators/registry.ts';
import { ProtocolField } from './protocol-field.ts';

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
    batchSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description:
          'Articles sent together in one call (default 1): XML-RPC system.multicall, or a JSON array of requests answered by an array of answers (protocols json and pubannotation); each article is still judged, stored and retried on its own.',
      }),
    ),
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
  batchSize: Type.Integer({ description: 'articles sent together in one call' }),
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
export const ServerStatus = Open({
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
  givenBack: Described(
    "leases the server's agent gave back (protocol pull; outcome released): not failures, not in failuresByKind or errors, not counted against the server: {count, lastAt (ISO 8601, or null)}",
  ),
  histogram: Described('response times, bucketed'),
  reliability: Described('the reliability figures (src/reliability)'),
  agent: Type.Optional(
    Described(
      "protocol pull only: its agents {connected, lastPollAt, lastLeaseAt, leasesHeld, localServer: up|down|unknown (whether the team's own server answers the agent), localServerDetail}",
    ),
  ),
});

const TAGS = ['servers'];

export const RegisterServer = {
  tags: TAGS,
  summary: 'Register an annotation server (team); it is checked (at once, or afterwards with ?background=true) and starts paused',
  params: SlugParams,
  body: RegisterBody,
  querystring: CheckQuery,
  response: responses({ 201: CheckedServer }),
};

export const ChallengeServers = {
  tags: TAGS,
  summary: 'Servers of a challenge (a team sees its own)',
  params: SlugParams,
  response: responses({ 200: Type.Array(ServerAnswer) }),
};

export const ServerStatusPage = {
  tags: TAGS,
  summary: 'Server status: progress, timing, failures by kind, the latest failed attempts',
  params: ServerIdParams,
  querystring: StatusQuery,
  response: responses({ 200: ServerStatus }),
};

export const StartServer = {
  tags: TAGS,
  summary: 'Start sending articles',
  params: ServerIdParams,
  response: responses({ 200: ChangedServer, 202: ChangedServer }),
};

export const PauseServer = {
  tags: TAGS,
  summary: 'Stop sending articles (those in flight finish)',
  params: ServerIdParams,
  response: responses({ 200: ChangedServer, 202: ChangedServer }),
};

export const CheckServer = {
  tags: TAGS,
  summary:
    'Call the server with the sample article now (202 at once with ?background=true, joining a check that runs; 409 without it while one runs)',
  params: ServerIdParams,
  querystring: CheckQuery,
  response: responses({ 200: CheckedServer, 202: CheckStarted }),
};

export const DeleteServer = {
  tags: TAGS,
  summary: 'Delete a paused server with its queue, deliveries, attempts and answers',
  params: ServerIdParams,
  response: responses({ 204: NoContent }),
};

export const RetryFailed = {
  tags: TAGS,
  summary: 'Send every failed article again',
  params: ServerIdParams,
  response: responses({
    200: Open({ ...ServerAnswer.properties, requeued: Type.Integer({ description: 'how many articles were sent again' }) }),
  }),
};
