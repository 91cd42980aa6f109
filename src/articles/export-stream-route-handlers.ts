// GET /challenges/:slug/export/:task/:format/stream: one server's answers as one file,
// written while it is read from the database (export-stream.ts), gzip-compressed on
// request. The first page is written before the answer starts, so a document the format
// cannot hold there is a 400 that says why; one found later cuts the transfer short (the
// CLI says so) — the header has gone by then.
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { principalOf } from '../auth/access.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { FormatError } from '../formats/index.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { onlineRunName } from '../leaderboard/service.ts';
import type { AnswerRepository } from './answer-repository.ts';
import { tasksCarriedBy } from './export-formats.ts';
import { serverOf, type ExportRouteDeps } from './export-route-handlers.ts';
import type * as S from './export-route-schemas.ts';
import { exportChunks, exportPages, streamFileName, type StreamFormat } from './export-stream.ts';

/** What the streamed export reads, beside what the other exports do. */
export interface ExportStreamDeps extends Omit<ExportRouteDeps, 'answers'> {
  answers: Pick<AnswerRepository, 'exportPage' | 'exportCount'>;
  /** Documents read (and held) at a time; 500 unless a test asks for fewer. */
  exportPageSize?: number;
}

const CONTENT_TYPES: Record<StreamFormat, string> = {
  'bioc-jsonl': 'application/x-ndjson; charset=utf-8',
  'bioc-json': 'application/json; charset=utf-8',
  'bioc-xml': 'application/xml; charset=utf-8',
  pubtator: 'text/plain; charset=utf-8',
};

/** The header with the number of documents the file holds (the CLI's progress and time left). */
const EXPORT_DOCUMENTS_HEADER = 'x-export-documents';

/** The file gzip-compressed; a failure reading it destroys the compressed stream too, so the transfer is cut, not ended. */
function gzipped(body: Readable): Readable {
  const gzip = createGzip();
  pipeline(body, gzip, () => undefined);
  return gzip;
}

async function* asBuffers(first: string, rest: AsyncIterator<string>): AsyncGenerator<Buffer> {
  yield Buffer.from(first);
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield Buffer.from(next.value);
}

export function exportStreamHandler(deps: ExportStreamDeps): RouteHandler<typeof S.ExportStream> {
  return async (request, reply) => {
    const principal = principalOf(request);
    const { task, format } = request.params;
    const challenge = await challengeOf(deps.challenges, request.params);
    const server = await serverOf(deps.servers, principal, challenge, request.query.server);
    const carried = tasksCarriedBy(format === 'bioc-jsonl' ? 'bioc-json' : format);
    if (!carried.includes(task)) throw badRequest(`${format} carries ${carried.join(', ') || 'no task'}, not ${task}`);
    const context = { format, task, run: onlineRunName(server), sourcedb: challenge.slug };
    const total = await deps.answers.exportCount(server.id, challenge.id, task);
    const pages = exportPages(
      (after, limit) => deps.answers.exportPage(server.id, challenge.id, task, after, limit),
      deps.exportPageSize ?? 500,
    );
    const chunks = exportChunks(context, pages);
    let first: IteratorResult<string>;
    try {
      first = await chunks.next();
    } catch (error) {
      if (error instanceof FormatError) throw new ApiError('cannot_export', `the answers cannot be written as ${format}: ${error.message}`);
      throw error;
    }
    const body = Readable.from(asBuffers(first.done ? '' : first.value, chunks));
    const name = streamFileName(context).replace(/[^\w.-]/g, '_');
    reply.header(EXPORT_DOCUMENTS_HEADER, String(total));
    if (request.query.gzip === '1') {
      reply.type('application/gzip').header('content-disposition', `attachment; filename="${name}.gz"`);
      return reply.send(gzipped(body));
    }
    reply.type(CONTENT_TYPES[format]).header('content-disposition', `attachment; filename="${name}"`);
    if (!/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.send(body);
    return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(gzipped(body));
  };
}
