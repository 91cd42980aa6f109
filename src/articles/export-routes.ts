// One server's stored answers for one task of a challenge, in any export format of
// src/formats, for `metaserver export` and scripts:
//   GET /challenges/:slug/export/:task/:format?server=<id>
// The answer is always JSON `{challenge, task, server, format, files: [{name, content}]}`:
// brat and .a2 are one file (or two) per article, the other formats one file; a single
// shape keeps the client simple. Documents are named by organiser id (the article id for
// articles without one). `tsv` is the leaderboard's BC II.5 result file, byte for byte.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireTeamOrAdmin } from '../auth/principal.ts';
import { exportA2, exportBio, exportBiocJson, exportBiocXml, exportBrat, exportPubAnnotation, FormatError, type ExportArticle } from '../formats/index.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import { ServerId, SlugParams } from '../http/schemas.ts';
import { exportRunTsv } from '../leaderboard/export-tsv.ts';
import { loadOnlineAnswers, onlineRun } from '../leaderboard/online-runs.ts';
import { onlineRunName } from '../leaderboard/service.ts';
import { isTaskName, type AnswerResult, type TaskName } from '../tasks/types.ts';

export const EXPORT_FORMATS = ['tsv', 'bioc-xml', 'bioc-json', 'brat', 'pubannotation', 'bio', 'a2'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The tasks each format can carry. */
const FORMAT_TASKS: Record<ExportFormat, TaskName[]> = {
  tsv: ['ACT', 'INT', 'IPT'],
  'bioc-xml': ['MENTION', 'COREF'],
  'bioc-json': ['MENTION', 'COREF'],
  brat: ['MENTION'],
  pubannotation: ['MENTION'],
  bio: ['MENTION'],
  a2: ['COREF'],
};

const Params = Type.Object({
  slug: SlugParams.properties.slug,
  task: Type.String({ minLength: 1, maxLength: 40 }),
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
});
const Query = Type.Object({ server: ServerId }, { additionalProperties: false });

export interface ExportFile {
  name: string;
  content: string;
}

/** Files for one run; `docs` are the server's answered articles in organiser-id order. */
export function exportFiles(format: ExportFormat, task: TaskName, run: string, docs: Array<{ id: string; text: string; result: AnswerResult }>): ExportFile[] {
  const only = (result: AnswerResult): AnswerResult => (result[task] === undefined ? {} : { [task]: result[task] });
  switch (format) {
    case 'tsv':
      throw new Error('tsv is exported by the leaderboard module');
    case 'bioc-xml':
    case 'bioc-json': {
      const articles: ExportArticle[] = docs.map((d) => ({ id: d.id, text: d.text, answers: [{ server: run, result: only(d.result) }] }));
      return format === 'bioc-xml'
        ? [{ name: `${run}.${task}.bioc.xml`, content: exportBiocXml(articles, { source: 'metaserver' }) }]
        : [{ name: `${run}.${task}.bioc.json`, content: exportBiocJson(articles, { source: 'metaserver' }) }];
    }
    case 'brat':
      return docs.flatMap((d) => {
        const doc = exportBrat(d.text, d.result.MENTION ?? []);
        return [{ name: `${d.id}.txt`, content: doc.txt }, { name: `${d.id}.ann`, content: doc.ann }];
      });
    case 'pubannotation':
      return [{ name: `${run}.${task}.pubannotation.json`, content: `${JSON.stringify(docs.map((d) => exportPubAnnotation(d.text, d.result.MENTION ?? [], d.id)), null, 2)}\n` }];
    case 'bio':
      // One CoNLL block per document, each headed by a -DOCSTART- line naming it.
      return [{ name: `${run}.${task}.bio`, content: docs.map((d) => `-DOCSTART- ${d.id}\n\n${exportBio(d.text, d.result.MENTION ?? []).bio}`).join('\n') }];
    case 'a2':
      return docs.map((d) => ({ name: `${d.id}.a2`, content: exportA2(d.result.COREF ?? { expressions: [], links: [] }) }));
  }
}

export function challengeExportRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/challenges/:slug/export/:task/:format',
      { schema: { tags: ['articles'], summary: "A server's answers for a task in an export format (organiser or the server's team)", params: Params, querystring: Query } },
      async (request) => {
        const principal = await ctx.auth.principal(request);
        requireTeamOrAdmin(principal);
        const { slug } = request.params;
        const format = request.params.format as ExportFormat;
        const task = request.params.task as TaskName;
        const challenge = await ctx.repos.challenges.bySlug(slug);
        if (!challenge) throw notFound(`challenge "${slug}"`);
        if (!isTaskName(task) || !challenge.tasks.includes(task)) throw new ApiError(400, 'unknown_task', `challenge "${slug}" has no task "${task}"; its tasks are ${challenge.tasks.join(', ')}`);
        if (!FORMAT_TASKS[format].includes(task)) throw badRequest(`${format} carries ${FORMAT_TASKS[format].join(', ')}, not ${task}`);
        const servers = await ctx.repos.servers.listByChallenge(challenge.id);
        const server = servers.find((s) => s.id === Number(request.query.server));
        if (!server || (principal.role === 'team' && principal.teamId !== server.teamId)) throw notFound(`server ${request.query.server} in challenge "${slug}"`);
        const run = onlineRunName(server, servers);
        let files: ExportFile[];
        if (format === 'tsv') {
          files = [{ name: `${run}.${task}.tsv`, content: exportRunTsv(onlineRun(task, await loadOnlineAnswers(ctx.db, server.id, task))) }];
        } else {
          const rows = await ctx.db.query<{ id: string; text: string; result: AnswerResult }>(
            `select coalesce(a.organiser_id, a.id::text) as id, a.text, an.result
             from answers an join articles a on a.id = an.article_id
             where an.server_id = $1 and a.challenge_id = $2 and (an.result -> $3) is not null
             order by coalesce(a.organiser_id, a.id::text)`,
            [server.id, challenge.id, task],
          );
          try {
            files = exportFiles(format, task, run, rows);
          } catch (error) {
            if (error instanceof FormatError) throw new ApiError(422, 'cannot_export', `the answers cannot be written as ${format}: ${error.message}`);
            throw error;
          }
        }
        return { challenge: challenge.slug, task, server: server.id, run, format, files };
      },
    );
  };
}
