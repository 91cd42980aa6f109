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
// The corpus formats (bioc-jsonl, bioc-json, bioc-xml, pubtator) also come as one file
// streamed from the database, a page of documents at a time, for corpora of millions:
//   GET /challenges/:slug/export/:task/:format/stream?server=<id>[&gzip=1]
// (export-stream-handler.ts; X-Export-Documents says how many documents it holds).
// The organiser's own export of the articles as loaded (text and passages, load order):
//   GET /challenges/:slug/articles/export/:format   (bioc-xml, bioc-json, pubtator, pubannotation)
// (loaded-export.ts); the gold's is the leaderboard's, GET /challenges/:slug/gold/:task/export/:format.
// Each path with its schema (export-route-schemas.ts), who may call it, and the handler that
// answers it (export-route-handlers.ts); the formats and the tasks each carries are
// export-formats.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './export-route-schemas.ts';
import { exportAnswersHandler, exportLoadedArticlesHandler, exportRunTsvHandler } from './export-route-handlers.ts';
import { exportStreamHandler, type ExportStreamDeps } from './export-stream-route-handlers.ts';

export function challengeExportRoutes(deps: ExportStreamDeps & Parameters<typeof exportAnswersHandler>[0]): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/challenges/:slug/export/:task/:format', { schema: S.ExportAnswers, config: { access: 'owner' } }, exportAnswersHandler(deps));
    app.get(
      '/challenges/:slug/export/:task/:format/stream',
      { schema: S.ExportStream, config: { access: 'owner' } },
      exportStreamHandler(deps),
    );
    app.get('/challenges/:slug/export/:task', { schema: S.ExportRunTsv, config: { access: 'owner' } }, exportRunTsvHandler(deps));
    app.get(
      '/challenges/:slug/articles/export/:format',
      { schema: S.ExportLoadedArticles, config: { access: 'admin' } },
      exportLoadedArticlesHandler(deps),
    );
  };
}
