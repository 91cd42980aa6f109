// The schemas of the export routes (export-routes.ts): what each route takes and answers,
// as fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the parameters and the answer come first.
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { Described, ListOf, Open, responses, ServerId, TaskParams, TextBody } from '../http/schemas.ts';
import { EXPORT_FORMATS } from './export-formats.ts';
import { STREAM_FORMATS } from './export-stream.ts';
import { CorpusExportQuery, CorpusExportResponses, CorpusFormatParam } from '../leaderboard/route-schemas.ts';

const Params = Type.Object({
  ...TaskParams.properties,
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
});
const TsvQuery = Type.Object({ server: ServerId }, { additionalProperties: false });
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

export const ExportAnswers = {
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
};

export const ExportRunTsv = {
  tags: ['scoring'],
  summary: "A server's online run as a BC II.5 TSV result file (organiser or the server's team)",
  params: TaskParams,
  querystring: TsvQuery,
  response: responses({ 200: TextBody('text/tab-separated-values', 'the BC II.5 result file') }),
};

const StreamParams = Type.Object({
  ...TaskParams.properties,
  format: Type.Union(STREAM_FORMATS.map((f) => Type.Literal(f))),
});
const StreamQuery = Type.Object(
  {
    server: ServerId,
    gzip: Type.Optional(Type.Literal('1', { description: 'the file gzip-compressed (application/gzip, named .gz)' })),
  },
  { additionalProperties: false },
);
const StreamBody = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });

export const ExportStream = {
  tags: ['articles'],
  summary: "A server's answers for a task as one file streamed from the database (organiser or the server's team)",
  description:
    'bioc-jsonl (one BioC document per line), bioc-json, bioc-xml or pubtator, read and written a page at a time; byte for byte the file of the JSON export. ' +
    'X-Export-Documents says how many documents it holds. With gzip=1 the file comes gzip-compressed (a .gz file); with Accept-Encoding: gzip and no gzip=1, compressed for the transfer only (Content-Encoding).',
  params: StreamParams,
  querystring: StreamQuery,
  response: responses({
    200: {
      description: 'the file',
      content: {
        'application/x-ndjson': { schema: StreamBody },
        'application/json': { schema: StreamBody },
        'application/xml': { schema: StreamBody },
        'text/plain': { schema: StreamBody },
        'application/gzip': { schema: StreamBody },
      },
    },
  }),
};

export const ExportLoadedArticles = {
  tags: ['articles'],
  summary: "The challenge's articles as loaded — text and passages, in load order — in a corpus format (organiser)",
  params: Type.Object({ slug: TaskParams.properties.slug, format: CorpusFormatParam }),
  querystring: CorpusExportQuery,
  response: CorpusExportResponses,
};
