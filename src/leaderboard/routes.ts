// The HTTP face of scoring: gold standards, maps, offline runs, leaderboards. (A server's
// online run as a TSV file is exported by articles/export-routes.ts, with the other formats.)
// Runs as its own encapsulated plugin so its text/TSV body parsers apply here only.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { checkAccess, principalOf, teamOf } from '../auth/access.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { Described, ListOf, Open, responses, SlugParams, TaskParams } from '../http/schemas.ts';
import { COLUMN_LAYOUTS, type ColumnLayout } from '../scoring/index.ts';
import type { ScoreOption } from '../families/family.ts';
import { familyOf, tasksWith } from '../families/registry.ts';
import { leaderboardTsv } from './leaderboard.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { addUtf8BodyParser } from '../http/utf8-body.ts';
import type { ScoreRequest } from './service.ts';

const TSV = 'text/tab-separated-values; charset=utf-8';
const TEXT_TYPES = ['text/tab-separated-values', 'text/plain'];

/**
 * Plain-text bodies (BC II.5 TSV files, maps) for these routes only: registered inside
 * this plugin, so fastify's encapsulation keeps them away from every other route. Bytes
 * are decoded strictly: fastify's own text parser turns invalid UTF-8 into U+FFFD, and an
 * accession would then silently stop matching the gold.
 */
function registerTextParsers(app: FastifyInstance): void {
  // The root instance has fastify's default text/plain parser; this plugin's copy replaces it.
  addUtf8BodyParser(app, [...TEXT_TYPES, ...XML_TYPES, ...JSON_LINES_TYPES], {
    invalid: () => ({
      error: new ApiError('invalid_utf8', 'the request body is not valid UTF-8; save the file as UTF-8 and send it again'),
    }),
  });
}
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
  },
  { additionalProperties: false },
);
const CorpusFormat = Type.Optional(
  Type.Union([Type.Literal('bioc'), Type.Literal('pubtator')], {
    description: 'the body is a corpus: BioC (XML or JSON) or PubTator text; told from the body when left out',
  }),
);
const RunQuery = Type.Object(
  { columns: Type.Optional(Type.String({ description: COLUMN_LAYOUTS.join(' | ') })), format: CorpusFormat },
  { additionalProperties: false },
);
const GoldQuery = Type.Object({ format: CorpusFormat }, { additionalProperties: false });
/** BioC XML corpora (gold, runs) are read as text like the TSV files; BioC JSON lines too. */
const XML_TYPES = ['application/xml', 'text/xml'];
const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl'];
const BODY_TYPES = [...TEXT_TYPES, ...XML_TYPES, ...JSON_LINES_TYPES, 'application/json'];

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
  n: Type.Integer(),
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
    metrics: Type.Optional(Described('the figures of the task family, as `metaserver score` reports them')),
    droppedLinks: Type.Optional(Described('links not scored and why (COREF)')),
    error: Type.Optional(Type.String({ description: 'why this run could not be scored (instead of metrics)' })),
  }),
});

const flag = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true');

export function leaderboardRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    registerTextParsers(base);
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const service = ctx.leaderboard;

    app.put(
      '/challenges/:slug/gold/:task',
      {
        schema: {
          tags: ['scoring'],
          summary: "Load or replace the gold standard of a task (organiser): the family's own form, or a BioC / PubTator corpus",
          params: TaskParams,
          querystring: GoldQuery,
          consumes: BODY_TYPES,
          response: responses({ 200: GoldAnswer }),
        },
        config: { access: 'admin' },
      },
      async (request) => {
        const { task } = request.params;
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        const { documents, items, warnings, unknownDocuments, unknownDocumentIds, replaced } = await service.putGold(
          challenge,
          task,
          request.body,
          request.query.format,
          ctx.accessions,
        );
        request.log.info({ challenge: challenge.slug, task, documents, items, replaced: replaced !== null }, 'gold standard loaded');
        return { task, documents, items, unknownDocuments, unknownDocumentIds, warnings, replaced };
      },
    );

    app.put(
      '/challenges/:slug/maps/:kind',
      {
        schema: {
          tags: ['scoring'],
          summary: 'Load or replace the homonym-ortholog (ho) or organism (of) map (organiser)',
          params: MapParams,
          consumes: TEXT_TYPES,
          response: responses({ 200: Open({ kind: Type.String(), entries: Type.Integer() }) }),
        },
        config: { access: 'admin' },
      },
      async (request) => {
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        return { kind: request.params.kind, entries: await service.putMap(challenge, request.params.kind, request.body) };
      },
    );

    app.post(
      '/challenges/:slug/runs/:task',
      {
        schema: {
          tags: ['scoring'],
          summary: 'Upload an offline run (team; at most 5 per task)',
          params: TaskParams,
          querystring: RunQuery,
          consumes: BODY_TYPES,
          response: responses({ 201: RunAnswer }),
        },
        config: { access: 'team' },
      },
      async (request, reply) => {
        const principal = teamOf(request);
        const { task } = request.params;
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        refuseWhenClosed(challenge, 'no runs are accepted');
        const columns = (request.query.columns ?? 'rank,confidence') as ColumnLayout;
        if (!COLUMN_LAYOUTS.includes(columns))
          throw badRequest(`columns must be one of ${COLUMN_LAYOUTS.join(' | ')}, not "${request.query.columns}"`);
        const run = await service.addRun(challenge, principal.teamId, task, columns, request.body, request.query.format);
        request.log.info({ challenge: challenge.slug, task, team: principal.teamId, run: run.name }, 'offline run stored');
        return reply.status(201).send({ runId: run.id, run: run.name, n: run.n, warnings: run.warnings });
      },
    );

    app.get(
      '/challenges/:slug/scores/:task',
      {
        schema: {
          tags: ['scoring'],
          summary: 'The leaderboard of a task (organiser; teams once the challenge is closed; everyone once the organiser publishes it)',
          params: TaskParams,
          querystring: ScoreQuery,
          response: responses({
            200: {
              description: 'the leaderboard, as JSON or (format=tsv) as a TSV table',
              content: { 'application/json': { schema: Board }, 'text/tab-separated-values': { schema: Type.String() } },
            },
          }),
        },
        // Public: a published leaderboard needs no token; otherwise the handler asks for one.
        config: { access: 'public' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const { task } = request.params;
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        // Published leaderboards of a closed challenge are for everyone; otherwise a token is needed.
        const published = challenge.phase === 'closed' && challenge.leaderboardPublished;
        if (!published) checkAccess('participant', principal);
        if (principal.role === 'team' && challenge.phase !== 'closed') {
          throw new ApiError(
            'not_published',
            `scores are published to teams once the challenge is closed; "${challenge.slug}" is in phase "${challenge.phase}"`,
          );
        }
        const q = request.query;
        const wanted: ScoreRequest = {
          all: flag(q.all),
          cutoff: q.cutoff === undefined ? undefined : Number(q.cutoff),
          beta: q.beta === undefined ? undefined : Number(q.beta),
          ho: flag(q.ho),
          of: flag(q.of),
          singleClass: flag(q.singleClass),
        };
        for (const [name, value] of Object.entries(wanted)) {
          if (value !== undefined && !familyOf(task).scoring.options.includes(name as keyof ScoreRequest))
            throw badRequest(`${name} does not apply to ${task}; leave it out`);
        }
        if (wanted.beta !== undefined && !(wanted.beta > 0)) throw badRequest('beta must be a positive number');
        const options = Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined));
        // The consensus rows (kind C) are extra runs, not a scoring option: not echoed in options.
        const board = await service.leaderboard(challenge, task, wanted, options, flag(q.consensus) === true);
        if (q.format === 'tsv') return reply.type(TSV).send(leaderboardTsv(board));
        return board;
      },
    );
  };
}
