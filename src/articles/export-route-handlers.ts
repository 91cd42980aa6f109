// What the export routes do (export-routes.ts registers them, export-route-schemas.ts types
// them): find the server the caller may export, and write its answers in the format asked,
// as JSON files, a tar.gz, or the bare TSV result file. Both routes find the server and write
// the TSV file with the same code (serverOf, runTsv).
import { canSee, principalOf } from '../auth/access.ts';
import type { Principal } from '../auth/principal.ts';
import type { Challenge, ChallengeRepository } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { ExportResult } from '../families/family.ts';
import type { TaskName } from '../families/registry.ts';
import { badRequest, notFound } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { exportRunTsv, onlineRun } from '../leaderboard/online-runs.ts';
import { onlineRunName } from '../leaderboard/service.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import type { AnswerRepository } from './answer-repository.ts';
import { exportFiles, tasksCarriedBy, type ExportFormat } from './export-formats.ts';
import type * as S from './export-route-schemas.ts';
import { exportLoadedArticles } from './loaded-export.ts';
import { sendCorpusExport, sendTarGz, writeOr400, type LoadedArticles } from '../leaderboard/gold-export.ts';

/** What the exports need, handed over by the composition root. */
export interface ExportRouteDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  servers: Pick<ServerRepository, 'listByChallenge'>;
  answers: Pick<AnswerRepository, 'onlineAnswers' | 'exportDocuments'>;
  articles: LoadedArticles;
}

const TSV_TYPE = 'text/tab-separated-values; charset=utf-8';

/** The header that says how many mentions a BIO export left out (they overlapped kept ones). */
const MENTIONS_LEFT_OUT_HEADER = 'x-mentions-left-out';

/** The server of the challenge the caller may export; another team's server is "not found", as everywhere else in the API. */
export async function serverOf(
  servers: ExportRouteDeps['servers'],
  principal: Principal,
  challenge: Challenge,
  serverId: string | number,
): Promise<AnnotationServer> {
  const server = (await servers.listByChallenge(challenge.id)).find((s) => s.id === Number(serverId));
  if (!server || !canSee(principal, server.teamId)) throw notFound(`server ${serverId} in challenge "${challenge.slug}"`);
  return server;
}

/** The server's online run for the task as the family's TSV result file, named after the run. */
async function runTsv(deps: ExportRouteDeps, server: AnnotationServer, task: TaskName): Promise<{ name: string; content: string }> {
  return {
    name: `${onlineRunName(server)}.${task}.tsv`,
    content: exportRunTsv(onlineRun(task, await deps.answers.onlineAnswers(server.id, task))),
  };
}

/** The server's answers written in the format (tsv: the result file); a format that cannot hold them is a 4xx that says why. */
async function exported(
  deps: ExportRouteDeps,
  format: ExportFormat,
  task: TaskName,
  server: AnnotationServer,
  challenge: Challenge,
  sourcedb: string,
): Promise<ExportResult> {
  if (format === 'tsv') return { files: [await runTsv(deps, server, task)] };
  const rows = await deps.answers.exportDocuments(server.id, challenge.id, task);
  return writeOr400(`the answers cannot be written as ${format}`, () =>
    exportFiles(format, task, onlineRunName(server), rows, { sourcedb }),
  );
}

/** GET /challenges/:slug/export/:task/:format: the files as JSON, or as one tar.gz. */
export function exportAnswersHandler(deps: ExportRouteDeps): RouteHandler<typeof S.ExportAnswers> {
  return async (request, reply) => {
    const principal = principalOf(request);
    const format = request.params.format as ExportFormat;
    const { task } = request.params;
    const challenge = await challengeOf(deps.challenges, request.params);
    const carried = tasksCarriedBy(format);
    if (!carried.includes(task)) throw badRequest(`${format} carries ${carried.join(', ')}, not ${task}`);
    const server = await serverOf(deps.servers, principal, challenge, request.query.server);
    const run = onlineRunName(server);
    const { files, mentionsLeftOut } = await exported(deps, format, task, server, challenge, request.query.sourcedb ?? challenge.slug);
    if (mentionsLeftOut !== undefined) reply.header(MENTIONS_LEFT_OUT_HEADER, String(mentionsLeftOut));
    if (request.query.archive === 'tar.gz') return await sendTarGz(reply, `${run}.${task}.${format}.tar.gz`, files);
    return {
      challenge: challenge.slug,
      task,
      server: server.id,
      run,
      format,
      files,
      ...(mentionsLeftOut !== undefined ? { mentionsLeftOut } : {}),
    };
  };
}

/** GET /challenges/:slug/export/:task: the bare TSV result file the leaderboard page downloads. */
export function exportRunTsvHandler(deps: ExportRouteDeps): RouteHandler<typeof S.ExportRunTsv> {
  return async (request, reply) => {
    const principal = principalOf(request);
    const { task } = request.params;
    const challenge = await challengeOf(deps.challenges, request.params);
    const server = await serverOf(deps.servers, principal, challenge, request.query.server);
    const tsvTasks = tasksCarriedBy('tsv');
    if (!tsvTasks.includes(task))
      throw badRequest(`exports are available for ${tsvTasks.join(', ')} (the BC II.5 TSV formats); ${task} exports are not supported yet`);
    if (!server.tasks.includes(task))
      throw badRequest(`server ${server.id} does not take part in ${task}; its tasks are ${server.tasks.join(', ')}`);
    const file = await runTsv(deps, server, task);
    return reply.type(TSV_TYPE).header('content-disposition', `attachment; filename="${file.name}"`).send(file.content);
  };
}

/** GET /challenges/:slug/articles/export/:format: the articles as loaded (organiser). */
export function exportLoadedArticlesHandler(deps: ExportRouteDeps): RouteHandler<typeof S.ExportLoadedArticles> {
  return async (request, reply) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const { format } = request.params;
    const exported = await exportLoadedArticles(deps.articles, challenge, format, request.query.sourcedb ?? challenge.slug);
    return await sendCorpusExport(reply, exported, { challenge: challenge.slug, format }, request.query.archive);
  };
}
