// One server's stored answers for one task of a challenge, in any export format of
// src/formats, for `metaserver export` and scripts:
//   GET /challenges/:slug/export/:task/:format?server=<id>[&sourcedb=<name>][&archive=tar.gz]
// The answer is JSON `{challenge, task, server, format, files: [{name, content}]}`: brat,
// .a2 and PubAnnotation are one file (or two) per article, the other formats one file; a
// single shape keeps the client simple. With `archive=tar.gz` the same files come as one
// gzip-compressed tar instead (PubAnnotation takes uploads so). Documents are named by
// organiser id (the article id for articles without one), which is also PubAnnotation's
// `sourceid`; `sourcedb` defaults to the challenge slug. BIO cannot hold overlapping
// mentions: how many were left out is in `mentionsLeftOut` and the X-Mentions-Left-Out
// header. `tsv` is the leaderboard's BC II.5 result file, byte for byte.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireTeamOrAdmin } from '../auth/principal.ts';
import type { ExportDoc, ExportFormatName, ExportResult } from '../families/family.ts';
import { ALL_FAMILIES, familyOf, isTaskName, type AnswerResult, type TaskName } from '../families/registry.ts';
import { FormatError, tarGz } from '../formats/index.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import { ServerId, SlugParams } from '../http/schemas.ts';
import { exportRunTsv, loadOnlineAnswers, onlineRun } from '../leaderboard/online-runs.ts';
import { onlineRunName } from '../leaderboard/service.ts';

export type { ExportFile, ExportResult } from '../families/family.ts';

/** The tasks each format can carry: 'tsv' for families with a result file, the others as each family offers them. */
const FORMAT_TASKS = new Map<ExportFormatName, TaskName[]>();
for (const family of ALL_FAMILIES) {
  const formats = [...(family.scoring.exportTsv ? ['tsv' as const] : []), ...(Object.keys(family.exports) as ExportFormatName[])];
  for (const format of formats) FORMAT_TASKS.set(format, [...(FORMAT_TASKS.get(format) ?? []), family.name as TaskName]);
}

/** Every export format some family offers; tsv first. */
export const EXPORT_FORMATS: readonly ExportFormatName[] = [...FORMAT_TASKS.keys()].sort((a, b) => Number(b === 'tsv') - Number(a === 'tsv'));
export type ExportFormat = ExportFormatName;

/** The export formats that can carry a task (for the pages' export form). */
export const formatsFor = (task: string): ExportFormatName[] => EXPORT_FORMATS.filter((f) => (FORMAT_TASKS.get(f) as string[] | undefined)?.includes(task));

const Params = Type.Object({
  slug: SlugParams.properties.slug,
  task: Type.String({ minLength: 1, maxLength: 40 }),
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
});
const Query = Type.Object(
  {
    server: ServerId,
    sourcedb: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$', description: "PubAnnotation's sourcedb (default: the challenge slug)" })),
    archive: Type.Optional(Type.Literal('tar.gz', { description: 'the files as one gzip-compressed tar' })),
  },
  { additionalProperties: false },
);

/** The header that says how many mentions a BIO export left out (they overlapped kept ones). */
export const MENTIONS_LEFT_OUT_HEADER = 'x-mentions-left-out';

/** Files for one run; `docs` are the server's answered articles in organiser-id order. */
export function exportFiles(
  format: ExportFormat,
  task: TaskName,
  run: string,
  docs: Array<{ id: string; text: string; result: AnswerResult }>,
  options: { sourcedb: string },
): ExportResult {
  if (format === 'tsv') throw new Error('tsv is exported by the leaderboard module');
  const write = familyOf(task).exports[format];
  if (!write) throw new Error(`${task} has no ${format} export`);
  // Only documents the server answered for this task (as the route selects them).
  const own: ExportDoc<unknown>[] = docs.flatMap((d) => (d.result[task] === undefined ? [] : [{ id: d.id, text: d.text, result: d.result[task] }]));
  return write(own, { run, sourcedb: options.sourcedb });
}

export function challengeExportRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/challenges/:slug/export/:task/:format',
      { schema: { tags: ['articles'], summary: "A server's answers for a task in an export format (organiser or the server's team)", params: Params, querystring: Query } },
      async (request, reply) => {
        const principal = await ctx.auth.principal(request);
        requireTeamOrAdmin(principal);
        const { slug } = request.params;
        const format = request.params.format as ExportFormat;
        const task = request.params.task as TaskName;
        const challenge = await ctx.repos.challenges.bySlug(slug);
        if (!challenge) throw notFound(`challenge "${slug}"`);
        if (!isTaskName(task) || !challenge.tasks.includes(task)) throw new ApiError(400, 'unknown_task', `challenge "${slug}" has no task "${task}"; its tasks are ${challenge.tasks.join(', ')}`);
        const carried = FORMAT_TASKS.get(format) ?? [];
        if (!carried.includes(task)) throw badRequest(`${format} carries ${carried.join(', ')}, not ${task}`);
        const servers = await ctx.repos.servers.listByChallenge(challenge.id);
        const server = servers.find((s) => s.id === Number(request.query.server));
        if (!server || (principal.role === 'team' && principal.teamId !== server.teamId)) throw notFound(`server ${request.query.server} in challenge "${slug}"`);
        const run = onlineRunName(server);
        let exported: ExportResult;
        if (format === 'tsv') {
          exported = { files: [{ name: `${run}.${task}.tsv`, content: exportRunTsv(onlineRun(task, await loadOnlineAnswers(ctx.db, server.id, task))) }] };
        } else {
          const rows = await ctx.db.query<{ id: string; text: string; result: AnswerResult }>(
            `select coalesce(a.organiser_id, a.id::text) as id, a.text, an.result
             from answers an join articles a on a.id = an.article_id
             where an.server_id = $1 and a.challenge_id = $2 and (an.result -> $3) is not null
             order by coalesce(a.organiser_id, a.id::text)`,
            [server.id, challenge.id, task],
          );
          try {
            exported = exportFiles(format, task, run, rows, { sourcedb: request.query.sourcedb ?? challenge.slug });
          } catch (error) {
            if (error instanceof FormatError) throw new ApiError(422, 'cannot_export', `the answers cannot be written as ${format}: ${error.message}`);
            throw error;
          }
        }
        const { files, mentionsLeftOut } = exported;
        if (mentionsLeftOut !== undefined) reply.header(MENTIONS_LEFT_OUT_HEADER, String(mentionsLeftOut));
        if (request.query.archive === 'tar.gz') {
          const name = `${run}.${task}.${format}.tar.gz`.replace(/[^\w.-]/g, '_');
          return reply.type('application/gzip').header('content-disposition', `attachment; filename="${name}"`).send(await tarGz(files));
        }
        return { challenge: challenge.slug, task, server: server.id, run, format, files, ...(mentionsLeftOut !== undefined ? { mentionsLeftOut } : {}) };
      },
    );
  };
}
