// The schemas of the test-suite routes (routes.ts): what each route takes and answers, as
// fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the bodies and answers they share come first.
import { Type } from 'typebox';
import { Described, ListOf, Open, responses, RowIdInteger, ServerId } from '../http/schemas.ts';
import { MAX_SUITE_ITEMS } from './suite-document.ts';

/** The run's challenge slug is `suite-<name>`, which must fit the challenge slug rule. */
const SuiteName = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,56}$', description: 'lower-case letters, digits and hyphens' });
const NameParams = Type.Object({ name: SuiteName });

const ReportQuerystring = Type.Object({
  server: Type.Optional(ServerId),
  by: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 })])),
  singles: Type.Optional(Type.String({ maxLength: 2000 })),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('tsv')])),
});

const CreateBody = Type.Object(
  {
    name: SuiteName,
    servers: Type.Array(RowIdInteger, { minItems: 1, maxItems: 50, uniqueItems: true, description: 'registered servers offering MENTION' }),
    entityQuery: Type.Optional(Type.String({ maxLength: 2000 })),
    sentenceQuery: Type.Optional(Type.String({ maxLength: 2000 })),
    sample: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SUITE_ITEMS })),
    seed: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer()])),
    suite: Type.Optional(Type.Unknown({ description: 'an uploaded suite: the suite.json manifest plus "gold" (the lines of gold.jsonl)' })),
  },
  { additionalProperties: false },
);

const CreatedRun = Open({
  name: Type.String(),
  challenge: Type.String({ description: 'the challenge the run is dispatched under (suite-<name>)' }),
  items: Type.Integer(),
  servers: ListOf({
    sourceServerId: Type.Integer(),
    serverId: Type.Integer({ description: 'the copy of the server that runs the suite' }),
  }),
});
const ProgressAnswer = Open({
  name: Type.String(),
  challenge: Type.String(),
  items: Type.Integer(),
  made: Described('how the suite was made (queries, sample, seed, or uploaded)'),
  createdAt: Described('ISO 8601'),
  done: Type.Boolean(),
  servers: ListOf({
    sourceServerId: Type.Integer(),
    serverId: Type.Integer(),
    name: Type.String(),
    team: Type.String(),
    state: Type.String(),
    progress: Open({ queued: Type.Integer(), active: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }),
    finished: Type.Boolean(),
  }),
});
const ReportAnswer = Open(
  {
    suite: Type.String(),
    server: Open({ serverId: Type.Integer(), sourceServerId: Type.Integer(), name: Type.String(), team: Type.String() }),
    progress: Described("the server copy's progress"),
    pending: Described('items without an answer yet (scored as answering nothing)'),
  },
  "P/R/F per feature class; the other fields are the report's (testsuites/report.ts)",
);

const TAGS = ['testsuites'];

export const CreateRun = {
  tags: TAGS,
  summary: 'Run a feature-based test suite on chosen MENTION servers',
  body: CreateBody,
  response: responses({ 201: CreatedRun }),
};

export const RunProgress = {
  tags: TAGS,
  summary: 'Progress of a test-suite run, per server',
  params: NameParams,
  response: responses({ 200: ProgressAnswer }),
};

export const RunReport = {
  tags: TAGS,
  summary: 'P/R/F per feature class for one server (JSON or TSV)',
  params: NameParams,
  querystring: ReportQuerystring,
  response: responses({
    200: {
      description: 'the report, as JSON or (format=tsv) as a TSV table',
      content: { 'application/json': { schema: ReportAnswer }, 'text/tab-separated-values': { schema: Type.String() } },
    },
  }),
};

/** The report as an HTML page (report-page.ts): validated as the JSON report is, left out of /openapi.json. */
export const RunReportPage = { hide: true, params: NameParams, querystring: ReportQuerystring };
