// `metaserver export` of the corpus formats (bioc-jsonl, bioc-json, bioc-xml, pubtator):
// the file streamed from the meta-server (GET …/export/:task/:format/stream) and written
// as it comes, so a million documents never sit in memory. The transfer is gzip-compressed
// (Accept-Encoding); a --out ending in .gz is written gzip-compressed here. Progress goes to
// stderr: documents written, their rate and, from the X-Export-Documents total, the time
// left — one line rewritten on a terminal, a plain line every few seconds otherwise.
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { ApiCallError, callApiStream, type ApiTarget } from './api-client.ts';

export const STREAMED_FORMATS = new Set(['bioc-jsonl', 'bioc-json', 'bioc-xml', 'pubtator']);

/** The line that starts each document in the file as the meta-server writes it. */
const DOCUMENT_START: Record<string, (line: string) => boolean> = {
  'bioc-jsonl': () => true,
  'bioc-json': (line) => line === '    {',
  'bioc-xml': (line) => line === '  <document>',
  pubtator: (line) => /^[^\t|\s]+\|t\|/.test(line),
};

/** Passes the text through, counting the documents that start in it. */
function documentCounter(format: string, onCount: (n: number) => void): Transform {
  const starts = DOCUMENT_START[format];
  let partial = '';
  let n = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (partial + chunk.toString('latin1')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (starts(line)) n += 1;
      onCount(n);
      done(null, chunk);
    },
  });
}

export interface ProgressIo {
  stderr: (s: string) => void;
  isTty: boolean;
  now?: () => number;
}

/** Progress lines: documents, rate, time left when the total is known. */
function progressReporter(io: ProgressIo, total: number | null) {
  const now = io.now ?? Date.now;
  const started = now();
  let last = started;
  const line = (n: number) => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = n / seconds;
    const left = total !== null && rate > 0 && n < total ? `, about ${Math.ceil((total - n) / rate)} s left` : '';
    return `${n}${total === null ? '' : `/${total}`} documents, ${Math.round(rate)}/s${left}`;
  };
  return {
    update(n: number) {
      const t = now();
      if (t - last < (io.isTty ? 200 : 5000)) return;
      last = t;
      io.stderr(io.isTty ? `\r${line(n)}   ` : `${line(n)}\n`);
    },
    done(n: number) {
      io.stderr(`${io.isTty ? '\r' : ''}exported ${line(n)}\n`);
    },
  };
}

async function openStream(
  target: ApiTarget,
  path: string,
): Promise<{ body: NodeJS.ReadableStream; gzipped: boolean; total: number | null }> {
  const { body, gzipped, headers } = await callApiStream(target, path);
  const total = Number(headers['x-export-documents']);
  return { body, gzipped, total: Number.isInteger(total) ? total : null };
}

/**
 * Streams the export into `out` (gzip-compressed when it ends in .gz): written to a
 * temporary file beside it and renamed when complete, so a transfer cut short leaves no
 * half file under the name asked for. Returns the documents written.
 */
export async function streamExport(target: ApiTarget, path: string, format: string, out: string, io: ProgressIo): Promise<number> {
  const { body, gzipped, total } = await openStream(target, path);
  const progress = progressReporter(io, total);
  let count = 0;
  const counter = documentCounter(format, (n) => progress.update((count = n)));
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.part`;
  const stages: NodeJS.ReadWriteStream[] = [...(gzipped ? [createGunzip()] : []), counter, ...(/\.gz$/i.test(out) ? [createGzip()] : [])];
  try {
    await pipeline([body, ...stages, createWriteStream(partial)]);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new ApiCallError(
      `the export broke off after ${count} documents (${(err as Error).message}); nothing was written to ${out}: run the export again`,
    );
  }
  renameSync(partial, out);
  progress.done(count);
  return count;
}
