// The HTTP face of scoring: gold standards, maps, offline runs, leaderboards, exports.
// Runs as its own encapsulated plugin so its text/TSV body parsers apply here only.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireAdmin, requireTeamOrAdmin } from '../auth/principal.ts';
import type { Challenge } from '../challenges/repository.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import { ServerId, SlugParams } from '../http/schemas.ts';
import { COLUMN_LAYOUTS, type ColumnLayout } from '../scoring/index.ts';
import type { ScoreOption } from '../families/family.ts';
import { TASK_NAMES, familyOf, isTaskName, tasksWith, type TaskName } from '../families/registry.ts';
import { leaderboardTsv } from './leaderboard.ts';
import { exportRunTsv, loadOnlineAnswers, onlineRun } from './online-runs.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { LeaderboardService, onlineRunName, type ScoreRequest } from './service.ts';

const TSV = 'text/tab-separated-values; charset=utf-8';
const TEXT_TYPES = ['text/tab-separated-values', 'text/plain'];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Plain-text bodies (BC II.5 TSV files, maps) for these routes only: registered inside
 * this plugin, so fastify's encapsulation keeps them away from every other route. Bytes
 * are decoded strictly: fastify's own text parser turns invalid UTF-8 into U+FFFD, and an
 * accession would then silently stop matching the gold.
 */
function registerTextParsers(app: FastifyInstance): void {
  // The root instance has fastify's default text/plain parser; this plugin's copy replaces it.
  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(TEXT_TYPES, { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    try {
      done(null, strictUtf8.decode(body));
    } catch {
      done(new ApiError(400, 'invalid_utf8', 'the request body is not valid UTF-8; save the file as UTF-8 and send it again'), undefined);
    }
  });
}
const TaskParams = Type.Object({ slug: SlugParams.properties.slug, task: Type.String({ minLength: 1, maxLength: 40 }) });
const MapParams = Type.Object({ slug: SlugParams.properties.slug, kind: Type.Union([Type.Literal('ho'), Type.Literal('of')]) });
const Flag = Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('true'), Type.Literal('false')]);
const taking = (option: ScoreOption): string => tasksWith((f) => f.scoring.options.includes(option)).join('/');
const ScoreQuery = Type.Object(
  {
    cutoff: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,6}$', description: `${taking('cutoff')}: keep the first k results per document` })),
    all: Type.Optional(Flag),
    ho: Type.Optional(Flag),
    of: Type.Optional(Flag),
    beta: Type.Optional(Type.String({ pattern: '^([0-9]+\\.?[0-9]*|\\.[0-9]+)$', description: `${taking('beta')}: also report macro F-beta` })),
    singleClass: Type.Optional(Flag),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('tsv')])),
    consensus: Type.Optional(Flag),
  },
  { additionalProperties: false },
);
const RunQuery = Type.Object({ columns: Type.Optional(Type.String({ description: COLUMN_LAYOUTS.join(' | ') })) }, { additionalProperties: false });
const ExportQuery = Type.Object({ server: ServerId }, { additionalProperties: false });
const BODY_TYPES = [...TEXT_TYPES, 'application/json'];

/** Tasks with a BC II.5 TSV export of online runs. */
const TSV_EXPORTS = tasksWith((f) => f.scoring.exportTsv);

const flag = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true');

export function leaderboardRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    registerTextParsers(base);
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const service = new LeaderboardService(ctx);

    async function challengeTask(slug: string, task: string): Promise<{ challenge: Challenge; task: TaskName }> {
      const challenge = await ctx.repos.challenges.bySlug(slug);
      if (!challenge) throw notFound(`challenge "${slug}"`);
      if (!isTaskName(task)) throw new ApiError(400, 'unknown_task', `unknown task "${task}"; use one of ${TASK_NAMES.join(', ')}`);
      if (!challenge.tasks.includes(task)) {
        throw new ApiError(400, 'unknown_task', `challenge "${slug}" has no ${task} task; its tasks are ${challenge.tasks.join(', ')}`);
      }
      return { challenge, task };
    }

    app.put(
      '/challenges/:slug/gold/:task',
      { schema: { tags: ['scoring'], summary: 'Load or replace the gold standard of a task (organiser)', params: TaskParams, consumes: BODY_TYPES } },
      async (request) => {
        requireAdmin(await ctx.auth.principal(request));
        const { challenge, task } = await challengeTask(request.params.slug, request.params.task);
        const { documents, items, warnings, unknownDocuments, unknownDocumentIds } = await service.putGold(challenge, task, request.body);
        request.log.info({ challenge: challenge.slug, task, documents, items }, 'gold standard loaded');
        return { task, documents, items, unknownDocuments, unknownDocumentIds, warnings };
      },
    );

    app.put(
      '/challenges/:slug/maps/:kind',
      { schema: { tags: ['scoring'], summary: 'Load or replace the homonym-ortholog (ho) or organism (of) map (organiser)', params: MapParams, consumes: TEXT_TYPES } },
      async (request) => {
        requireAdmin(await ctx.auth.principal(request));
        const challenge = await ctx.repos.challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        return { kind: request.params.kind, entries: await service.putMap(challenge, request.params.kind, request.body) };
      },
    );

    app.post(
      '/challenges/:slug/runs/:task',
      { schema: { tags: ['scoring'], summary: 'Upload an offline run (team; at most 5 per task)', params: TaskParams, querystring: RunQuery, consumes: BODY_TYPES } },
      async (request, reply) => {
        const principal = await ctx.auth.principal(request);
        requireTeamOrAdmin(principal);
        if (principal.role !== 'team') throw new ApiError(403, 'forbidden', 'an offline run belongs to a team: upload it with the team\'s token');
        const { challenge, task } = await challengeTask(request.params.slug, request.params.task);
        refuseWhenClosed(challenge, 'no runs are accepted');
        const columns = (request.query.columns ?? 'rank,confidence') as ColumnLayout;
        if (!COLUMN_LAYOUTS.includes(columns)) throw badRequest(`columns must be one of ${COLUMN_LAYOUTS.join(' | ')}, not "${request.query.columns}"`);
        const run = await service.addRun(challenge, principal.teamId, task, columns, request.body);
        request.log.info({ challenge: challenge.slug, task, team: principal.teamId, run: run.name }, 'offline run stored');
        return reply.status(201).send({ runId: run.id, run: run.name, n: run.n, warnings: run.warnings });
      },
    );

    app.get(
      '/challenges/:slug/scores/:task',
      { schema: { tags: ['scoring'], summary: 'The leaderboard of a task (organiser; teams once the challenge is closed)', params: TaskParams, querystring: ScoreQuery } },
      async (request, reply) => {
        const principal = await ctx.auth.principal(request);
        requireTeamOrAdmin(principal);
        const { challenge, task } = await challengeTask(request.params.slug, request.params.task);
        if (principal.role === 'team' && challenge.phase !== 'closed') {
          throw new ApiError(403, 'not_published', `scores are published to teams once the challenge is closed; "${challenge.slug}" is in phase "${challenge.phase}"`);
        }
        const q = request.query;
        const wanted: ScoreRequest = {
          all: flag(q.all), cutoff: q.cutoff === undefined ? undefined : Number(q.cutoff), beta: q.beta === undefined ? undefined : Number(q.beta),
          ho: flag(q.ho), of: flag(q.of), singleClass: flag(q.singleClass),
        };
        for (const [name, value] of Object.entries(wanted)) {
          if (value !== undefined && !familyOf(task).scoring.options.includes(name as keyof ScoreRequest)) throw badRequest(`${name} does not apply to ${task}; leave it out`);
        }
        if (wanted.beta !== undefined && !(wanted.beta > 0)) throw badRequest('beta must be a positive number');
        const options = Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined));
        // The consensus rows (kind C) are extra runs, not a scoring option: not echoed in options.
        const board = await service.leaderboard(challenge, task, wanted, options, flag(q.consensus) === true);
        if (q.format === 'tsv') return reply.type(TSV).send(leaderboardTsv(board));
        return board;
      },
    );

    app.get(
      '/challenges/:slug/export/:task',
      { schema: { tags: ['scoring'], summary: "A server's online run as a BC II.5 TSV result file (organiser or the server's team)", params: TaskParams, querystring: ExportQuery } },
      async (request, reply) => {
        const principal = await ctx.auth.principal(request);
        requireTeamOrAdmin(principal);
        const { challenge, task } = await challengeTask(request.params.slug, request.params.task);
        const servers = await ctx.repos.servers.listByChallenge(challenge.id);
        const server = servers.find((s) => s.id === Number(request.query.server));
        // Another team's server is "not found", as everywhere else in the API.
        if (!server || (principal.role === 'team' && principal.teamId !== server.teamId)) throw notFound(`server ${request.query.server} in challenge "${challenge.slug}"`);
        if (!TSV_EXPORTS.includes(task)) throw badRequest(`exports are available for ${TSV_EXPORTS.join(', ')} (the BC II.5 TSV formats); ${task} exports are not supported yet`);
        if (!server.tasks.includes(task)) throw badRequest(`server ${server.id} does not take part in ${task}; its tasks are ${server.tasks.join(', ')}`);
        const tsv = exportRunTsv(onlineRun(task, await loadOnlineAnswers(ctx.db, server.id, task)));
        const name = `${onlineRunName(server)}.${task}.tsv`;
        return reply.type(TSV).header('content-disposition', `attachment; filename="${name}"`).send(tsv);
      },
    );
  };
}
