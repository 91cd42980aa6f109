// The schemas of the scoring routes (routes.ts): what each route takes and answers, as
// fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the bodies and answers they share come first.
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { Described, ListOf, Open, responses, SlugParams, TaskParams } from '../http/schemas.ts';
import { ALL_PAIRS_LIMIT, COLUMN_LAYOUTS, SIGNIFICANCE_LEVEL } from '../scoring/index.ts';
import { DEFAULT_TRIALS, MAX_TRIALS, MIN_TRIALS, SIGNIFICANCE_MAX_DOCUMENTS, significanceTasks } from './board-significance.ts';
import type { ScoreOption } from '../families/family.ts';
import { tasksWith } from '../families/registry.ts';
import { CORPUS_WRITE_FORMATS } from '../formats/corpus-writer.ts';

/** The media types of the bodies sent as TSV or text (gold, maps, runs). */
const TEXT_TYPES = ['text/tab-separated-values', 'text/plain'];
/** BioC XML corpora (gold, runs) are read as text like the TSV files; BioC JSON lines too. */
const XML_TYPES = ['application/xml', 'text/xml'];
const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl'];
/** Every body the routes read as text (with the plugin's own strict UTF-8 parser). */
export const TEXT_BODY_TYPES = [...TEXT_TYPES, ...XML_TYPES, ...JSON_LINES_TYPES];
const BODY_TYPES = [...TEXT_BODY_TYPES, 'application/json'];

const MapParams = Type.Object({ slug: SlugParams.properties.slug, kind: Type.Union([Type.Literal('ho'), Type.Literal('of')]) });
const Flag = Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('true'), Type.Literal('false')]);
const taking = (option: ScoreOption): string => tasksWith((f) => f.scoring.options.includes(option)).join('/');
const ScoreQuery = Type.Object(
  {
    cutoff: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,6}$', description: `${taking('cutoff')}: keep the first k results per document` }),
    ),
    all: Type.Optional(Flag),
    ho: Type.Optional(Flag),
    of: Type.Optional(Flag),
    beta: Type.Optional(
      Type.String({ pattern: '^([0-9]+\\.?[0-9]*|\\.[0-9]+)$', description: `${taking('beta')}: also report macro F-beta` }),
    ),
    singleClass: Type.Optional(Flag),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('tsv')])),
    consensus: Type.Optional(Flag),
    significance: Type.Optional(
      Type.Union(Flag.anyOf, {
        description: `${significanceTasks().join('/')}: 95% bootstrap intervals of the main figures on each row (ci95) and approximate randomization between the runs (significance); gold standards of at most ${SIGNIFICANCE_MAX_DOCUMENTS} documents`,
      }),
    ),
    board: Type.Optional(
      Type.Union([Type.Literal('live'), Type.Literal('official')], {
        description:
          'official: the board as it was at the close (stored then, default options only), whatever arrived in a post-challenge phase; live (default): as things stand',
      }),
    ),
    trials: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,4}$',
        description: `with significance=1: resamples and shuffles, ${MIN_TRIALS} to ${MAX_TRIALS} (default ${DEFAULT_TRIALS})`,
      }),
    ),
  },
  { additionalProperties: false },
);
const CorpusFormat = Type.Optional(
  Type.Union([Type.Literal('bioc'), Type.Literal('pubtator')], {
    description: 'the body is a corpus: BioC (XML or JSON) or PubTator text; told from the body when left out',
  }),
);
const RunQuery = Type.Object(
  {
    columns: Type.Optional(Type.String({ description: COLUMN_LAYOUTS.join(' | ') })),
    format: CorpusFormat,
    baseline: Type.Optional(
      Type.Union(Flag.anyOf, { description: "organiser: upload a baseline (shown on the leaderboard, not ranked, in no team's runs)" }),
    ),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "with baseline=1: the baseline's name on the leaderboard; a baseline of the same name and task is replaced",
      }),
    ),
  },
  { additionalProperties: false },
);
const GoldQuery = Type.Object({ format: CorpusFormat }, { additionalProperties: false });

const GoldAnswer = Open({
  task: Type.String(),
  documents: Type.Integer(),
  items: Type.Integer(),
  unknownDocuments: Type.Integer({ description: 'gold documents that are not articles of the challenge' }),
  warnings: Described('what was accepted with a warning'),
  replaced: Type.Union([Open({ documents: Type.Integer(), items: Type.Integer(), loadedAt: Type.String() }), Type.Null()], {
    description: 'the gold standard this load replaced (its counts and when it was loaded), or null when there was none',
  }),
});
const RunAnswer = Open({
  runId: Type.Integer(),
  run: Type.String({ description: 'the run name on the leaderboard' }),
  n: Type.Optional(Type.Integer({ description: "team runs: the run's number, 1 to 5" })),
  baseline: Type.Optional(Type.Boolean({ description: 'baseline=1: true' })),
  replaced: Type.Optional(Type.Boolean({ description: 'baseline=1: whether a baseline of that name was replaced' })),
  warnings: Described('what was accepted with a warning'),
});
const Board = Open({
  task: Type.String(),
  options: Described('the scoring options applied'),
  runs: ListOf({
    run: Type.String(),
    team: Type.String(),
    server: Type.Optional(Type.Integer()),
    serverName: Type.Optional(Type.String({ description: "S rows: the server's name" })),
    answered: Type.Optional(
      Type.Integer({
        description: 'S rows: challenge articles the server answered for the task (0: never answered, listed after the ranked runs)',
      }),
    ),
    kind: Type.String({ description: "S: a server's online run; R: an offline run; C: a consensus" }),
    // Optional in the schema only because rows are typed before they are ranked; every row answered has both.
    baseline: Type.Optional(
      Type.Boolean({ description: "on every row: true for the organiser's baselines (R rows of no team, team ''), shown but not ranked" }),
    ),
    rank: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description:
          'on every row: the place among the ranked runs (1: best); null for baselines, servers that never answered, runs not scored',
      }),
    ),
    metrics: Type.Optional(Described('the figures of the task family, as `metaserver score` reports them')),
    droppedLinks: Type.Optional(Described('links not scored and why (COREF)')),
    error: Type.Optional(Type.String({ description: 'why this run could not be scored (instead of metrics)' })),
    ci95: Type.Optional(
      Described('significance=1, ranked rows: {"<metric>": {low, high}}, the 95% bootstrap percentile interval of each main figure'),
    ),
    postChallenge: Type.Optional(
      Type.Boolean({
        description:
          'live board, once the post-challenge phase has opened, on every row: true when the run has something that arrived after the official close (a run uploaded, a server registered or an answer stored then)',
      }),
    ),
  }),
  board: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('official')], {
      description: 'once the challenge has closed: which board this is (official: stored at the close)',
    }),
  ),
  closedAt: Type.Optional(Type.String({ description: 'once the challenge has closed: the close the official board is of (ISO 8601)' })),
  takenAt: Type.Optional(Type.String({ description: 'board=official: when the stored board was computed (ISO 8601)' })),
  significance: Type.Optional(
    Open(
      {
        method: Type.Literal('approximate randomization'),
        trials: Type.Integer(),
        scope: Type.Union([Type.Literal('all pairs'), Type.Literal('adjacent')], {
          description: `all pairs up to ${ALL_PAIRS_LIMIT} ranked runs; above, each run against the next below it and the top run against every other`,
        }),
        pairs: ListOf({ a: Type.String(), b: Type.String(), p: Type.Number(), exact: Type.Boolean() }),
        topGroup: Type.Array(Type.String(), {
          description: `the top run and the runs not significantly different from it (p ≥ ${SIGNIFICANCE_LEVEL})`,
        }),
      },
      'significance=1: p of the main F difference of each pair of ranked runs, swapping their documents at random',
    ),
  ),
});

const TAGS = ['scoring'];

export const PutGold = {
  tags: TAGS,
  summary: "Load or replace the gold standard of a task (organiser): the family's own form, or a BioC / PubTator corpus",
  params: TaskParams,
  querystring: GoldQuery,
  consumes: BODY_TYPES,
  response: responses({ 200: GoldAnswer }),
};

export const PutMap = {
  tags: TAGS,
  summary: 'Load or replace the homonym-ortholog (ho) or organism (of) map (organiser)',
  params: MapParams,
  consumes: TEXT_TYPES,
  response: responses({ 200: Open({ kind: Type.String(), entries: Type.Integer() }) }),
};

export const AddRun = {
  tags: TAGS,
  summary: 'Upload an offline run (team; at most 5 per task), or a baseline (organiser: baseline=1&name=NAME)',
  params: TaskParams,
  querystring: RunQuery,
  consumes: BODY_TYPES,
  response: responses({ 201: RunAnswer }),
};

export const Scores = {
  tags: TAGS,
  summary: 'The leaderboard of a task (organiser; teams once the challenge is closed; everyone once the organiser publishes it)',
  params: TaskParams,
  querystring: ScoreQuery,
  response: responses({
    200: {
      description: 'the leaderboard, as JSON or (format=tsv) as a TSV table',
      content: { 'application/json': { schema: Board }, 'text/tab-separated-values': { schema: Type.String() } },
    },
  }),
};

/** The corpus formats the organiser's own exports (gold, articles as loaded) write. */
export const CorpusFormatParam = Type.Union(CORPUS_WRITE_FORMATS.map((f) => Type.Literal(f)));
export const CorpusExportQuery = Type.Object(
  {
    sourcedb: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^\\S+$',
        description: "the collection's source (BioC, when the corpus named none) or PubAnnotation's sourcedb; default: the challenge slug",
      }),
    ),
    archive: Type.Optional(Type.Literal('tar.gz', { description: 'the files as one gzip-compressed tar' })),
  },
  { additionalProperties: false },
);
export const CorpusExportAnswer = Open(
  {
    challenge: Type.String(),
    format: Type.String(),
    documents: Type.Integer({ description: 'documents written' }),
    files: ListOf({ name: Type.String(), content: Type.String() }),
    leftOut: ListOf({ document: Type.String(), what: Type.String() }),
  },
  'the files as JSON (PubAnnotation: one per document); leftOut: what the format could not hold, named',
);
export const CorpusExportResponses = responses({
  200: {
    description: 'the files as JSON, or with archive=tar.gz as one gzip-compressed tar',
    content: {
      'application/json': { schema: CorpusExportAnswer },
      'application/gzip': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
    },
  },
});

export const ExportGold = {
  tags: TAGS,
  summary: 'The gold standard of a task in a corpus format (organiser): the corpus as it was loaded, or a MENTION gold on the articles',
  params: Type.Object({ ...TaskParams.properties, format: CorpusFormatParam }),
  querystring: CorpusExportQuery,
  response: CorpusExportResponses,
};

export const ExportRuns = {
  tags: TAGS,
  summary:
    'Every run of the challenge, its gold and its scores as one tar.gz, streamed (organiser; teams once the leaderboards are published)',
  description:
    'For each task with a gold standard: runs/<TASK>/<run> (offline runs as stored, online runs as the task’s result file), gold/<TASK>, in forms `metaserver score` reads, so each run file scored against its gold gives its row; ' +
    'scores.tsv (every row of every board, one line per figure: task, run, kind, team, server, baseline, rank, metric, value) and manifest.json (runs with team, server, file and time; gold; runs left out and why). ' +
    'A challenge without any gold standard is a 404 no_gold.',
  params: SlugParams,
  response: responses({
    200: {
      description: 'the archive (<slug>.runs.tar.gz)',
      content: { 'application/gzip': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } },
    },
  }),
};
