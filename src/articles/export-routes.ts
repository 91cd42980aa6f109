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
// header. `tsv` is the leaderboard's BC II.5 result file, byte for byte; the leaderboard
// page downloads the same file bare, as text/tab-separated-values, from
//   GET /challenges/:slug/export/:task?server=<id>
// Both routes find the server and write the file with the same code (serverOf, runTsv).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { canSee, principalOf } from '../auth/access.ts';
import type { Principal } from '../auth/principal.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { ExportDoc, ExportFormatName, ExportResult } from '../families/family.ts';
import { ALL_FAMILIES, familyOf, type AnswerResult, type TaskName } from '../families/registry.ts';
import { FormatError, tarGz } from '../formats/index.ts';
import type { ArticleSection } from '../formats/common.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import { Described, ListOf, Open, responses, ServerId, TaskParams, TextBody } from '../http/schemas.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import { exportRunTsv, onlineRun } from '../leaderboard/online-runs.ts';
import { onlineRunName } from '../leaderboard/service.ts';

export type { ExportFile, ExportResult } from '../families/family.ts';

/** The tasks each format can carry: 'tsv' for families with a result file, the others as each family offers them. */
const FORMAT_TASKS = new Map<ExportFormatName, TaskName[]>();
for (const family of ALL_FAMILIES) {
  const formats = [...(family.scoring.exportTsv ? ['tsv' as const] : []), ...(Object.keys(family.exports) as ExportFormatName[])];
  for (const format of formats) FORMAT_TASKS.set(format, [...(FORMAT_TASKS.get(format) ?? []), family.name as TaskName]);
}

/** Every export format some family offers; tsv first. */
export const EXPORT_FORMATS: readonly ExportFormatName[] = [...FORMAT_TASKS.keys()].sort(
  (a, b) => Number(b === 'tsv') - Number(a === 'tsv'),
);
export type ExportFormat = ExportFormatName;

/** The export formats that can carry a task (for the pages' export form). */
export const formatsFor = (task: string): ExportFormatName[] =>
  EXPORT_FORMATS.filter((f) => (FORMAT_TASKS.get(f) as string[] | undefined)?.includes(task));

const Params = Type.Object({
  ...TaskParams.properties,
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
});
const TsvQuery = Type.Object({ server: ServerId }, { additionalProperties: false });
const TSV_TYPE = 'text/tab-separated-values; charset=utf-8';
const Query = Type.Object(
  {
    server: ServerId,
    sourcedb: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^\\S+$',
        description: "PubAnnotation's sourcedb (default: the challenge slug)",
      }),
    ),
    archive: Type.Optional(Type.Literal('tar.gz', { description: 'the files as one gzip-compressed tar' })),
  },
  { additionalProperties: false },
);

const ExportAnswer = Open(
  {
    challenge: Type.String(),
    task: Type.String(),
    server: Type.Integer(),
    run: Type.String(),
    format: Type.String(),
    files: ListOf({ name: Type.String(), content: Type.String() }),
    mentionsLeftOut: Type.Optional(Described('BIO: mentions left out because they overlapped kept ones')),
  },
  'the files as JSON; with archive=tar.gz the same files as one application/gzip tar instead',
);

/** The header that says how many mentions a BIO export left out (they overlapped kept ones). */
const MENTIONS_LEFT_OUT_HEADER = 'x-mentions-left-out';

/** Files for one run; `docs` are the server's answered articles in organiser-id order. */
export function exportFiles(
  format: ExportFormat,
  task: TaskName,
  run: string,
  docs: Array<{ id: string; text: string; result: AnswerResult; sections?: readonly ArticleSection[] | null }>,
  options: { sourcedb: string },
): ExportResult {
  if (format === 'tsv') throw new Error('tsv is exported by the leaderboard module');
  const write = familyOf(task).exports[format];
  if (!write) throw new Error(`${task} has no ${format} export`);
  // Only documents the server answered for this task (as the route selects them).
  // A corpus article's sections go along: BioC and PubTator write its passages back.
  const own: ExportDoc<unknown>[] = docs.flatMap((d) =>
    d.result[task] === undefined
      ? []
      : [{ id: d.id, text: d.text, result: d.result[task], ...(d.sections ? { sections: d.sections } : {}) }],
  );
  return write(own, { run, sourcedb: options.sourcedb });
}

/** The server of the challenge the caller may export; another team's server is "not found", as everywhere else in the API. */
async function serverOf(
  servers: ServerRepository,
  principal: Principal,
  challenge: Challenge,
  serverId: string | number,
): Promise<AnnotationServer> {
  const server = (await servers.listByChallenge(challenge.id)).find((s) => s.id === Number(serverId));
  if (!server || !canSee(principal, server.teamId)) throw notFound(`server ${serverId} in challenge "${challenge.slug}"`);
  return server;
}

/** The server's online run for the task as the family's TSV result file, named after the run. */
async function runTsv(ctx: AppContext, server: AnnotationServer, task: TaskName): Promise<{ name: string; content: string }> {
  return {
    name: `${onlineRunName(server)}.${task}.tsv`,
    content: exportRunTsv(onlineRun(task, await ctx.repos.answers.onlineAnswers(server.id, task))),
  };
}

export function challengeExportRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/challenges/:slug/export/:task/:format',
      {
        schema: {
          tags: ['articles'],
          summary: "A server's answers for a task in an export format (organiser or the server's team)",
          params: Params,
          querystring: Query,
          response: responses({
            200: {
              description: 'the files as JSON, or with archive=tar.gz as one gzip-compressed tar',
              content: {
                'application/json': { schema: ExportAnswer },
                'application/gzip': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
              },
            },
          }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const format = request.params.format as ExportFormat;
        const { task } = request.params;
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        const carried = FORMAT_TASKS.get(format) ?? [];
        if (!carried.includes(task)) throw badRequest(`${format} carries ${carried.join(', ')}, not ${task}`);
        const server = await serverOf(ctx.repos.servers, principal, challenge, request.query.server);
        const run = onlineRunName(server);
        let exported: ExportResult;
        if (format === 'tsv') {
          exported = { files: [await runTsv(ctx, server, task)] };
        } else {
          const rows = await ctx.repos.answers.exportDocuments(server.id, challenge.id, task);
          try {
            exported = exportFiles(format, task, run, rows, { sourcedb: request.query.sourcedb ?? challenge.slug });
          } catch (error) {
            if (error instanceof FormatError)
              throw new ApiError('cannot_export', `the answers cannot be written as ${format}: ${error.message}`);
            throw error;
          }
        }
        const { files, mentionsLeftOut } = exported;
        if (mentionsLeftOut !== undefined) reply.header(MENTIONS_LEFT_OUT_HEADER, String(mentionsLeftOut));
        if (request.query.archive === 'tar.gz') {
          const name = `${run}.${task}.${format}.tar.gz`.replace(/[^\w.-]/g, '_');
          return reply
            .type('application/gzip')
            .header('content-disposition', `attachment; filename="${name}"`)
            .send(await tarGz(files));
        }
        return {
          challenge: challenge.slug,
          task,
          server: server.id,
          run,
          format,
          files,
          ...(mentionsLeftOut !== undefined ? { mentionsLeftOut } : {}),
        };
      },
    );

    app.get(
      '/challenges/:slug/export/:task',
      {
        schema: {
          tags: ['scoring'],
          summary: "A server's online run as a BC II.5 TSV result file (organiser or the server's team)",
          params: TaskParams,
          querystring: TsvQuery,
          response: responses({ 200: TextBody('text/tab-separated-values', 'the BC II.5 result file') }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const { task } = request.params;
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        const server = await serverOf(ctx.repos.servers, principal, challenge, request.query.server);
        const tsvTasks = FORMAT_TASKS.get('tsv') ?? [];
        if (!tsvTasks.includes(task))
          throw badRequest(
            `exports are available for ${tsvTasks.join(', ')} (the BC II.5 TSV formats); ${task} exports are not supported yet`,
          );
        if (!server.tasks.includes(task))
          throw badRequest(`server ${server.id} does not take part in ${task}; its tasks are ${server.tasks.join(', ')}`);
        const file = await runTsv(ctx, server, task);
        return reply.type(TSV_TYPE).header('content-disposition', `attachment; filename="${file.name}"`).send(file.content);
      },
    );
  };
}
