// PubMed and MEDLINE files for `metaserver import` (`.xml.gz`, or `.xml` whose root is
// PubmedArticleSet / MedlineCitationSet), read as streams in two passes so a baseline file
// of 30,000 citations never stands in memory and the import still checks everything before
// it sends anything:
//   pass 1 (checkPubmedFiles) reads every file whole — gzip integrity, well-formed XML, a
//     PMID and a title or abstract in every citation — and keeps one number per PMID: where
//     its last version stands (files in the order given; a DeleteCitation drops the PMID,
//     a later citation brings it back);
//   pass 2 (sendPubmedFiles) reads them again and sends, batch by batch as it reads, the
//     version pass 1 kept of each PMID, each as `{id: PMID, pubmed: <that citation>}`.
// A file that breaks off (truncated or corrupt gzip, malformed XML) is a failure naming the
// file and the last complete citation; with --skip-bad the citations before the break are
// loaded and the ones after it are left out (they cannot be read, so they cannot be named).
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { PubmedReadError, pubmedEvents } from '../formats/pubmed-stream.ts';
import { isPubmedXml, PubmedRun, type PubmedCitation } from '../formats/pubmed.ts';
import type { ImportFailure } from './import-files.ts';
import { contentOf, fileStart } from './import-kinds.ts';
import { ImportProgress, type ProgressIo } from './import-progress.ts';

/** The organiser id rule of the article routes. */
const ORGANISER_ID = /^[^\s/]{1,200}$/;
/** Where a version stands: its file's index and its place among the file's citations. */
const keyOf = (fileIndex: number, ordinal: number) => fileIndex * 2 ** 32 + ordinal;
const isGzip = (file: string) => file.toLowerCase().endsWith('.gz');

/** Whether `metaserver import` reads the file as PubMed XML: a `.xml.gz`, or a `.xml` whose root says so. */
export function isPubmedFile(file: string): boolean {
  const lower = file.toLowerCase();
  if (lower.endsWith('.xml.gz')) return true;
  if (!lower.endsWith('.xml')) return false;
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(64 * 1024);
    return isPubmedXml(start.subarray(0, readSync(fd, start, 0, start.length, 0)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a `.xml.gz` named for import is not a PubMed file, seen from its first bytes (the start
 * of its gzip stream, decompressed): not gzip at all, or gzip of something else (a BioC
 * collection, a tar archive…). Undefined for PubMed XML, and for a stream too broken to
 * start, which pass 1 refuses saying where it breaks.
 */
export function notPubmedReason(file: string): string | undefined {
  if (!isGzip(file)) return undefined;
  const start = fileStart(file, 16384);
  if (start[0] !== 0x1f || start[1] !== 0x8b)
    return `a .xml.gz is read as gzip-compressed PubMed XML, and this file is not gzip-compressed: it holds ${contentOf(start).what}`;
  let inner: Buffer;
  try {
    // The first piece only: a sync flush gives what it holds without the rest of the stream.
    inner = gunzipSync(start, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
  if (inner.length === 0 || isPubmedXml(inner.toString('latin1'))) return undefined;
  const { what, format } = contentOf(inner);
  const instead = format === undefined ? '' : `; to import it as ${format}, decompress it (gunzip) and import the file it holds`;
  return `not PubMed / MEDLINE XML (root <PubmedArticleSet> or <MedlineCitationSet>), the only kind a .xml.gz is read as: it holds gzip-compressed ${what}${instead}`;
}

/** The file's bytes as a stream, each piece counted as it is read (progress is bytes read against the size). */
function openCounted(file: string, onBytes: (n: number) => void): Readable {
  async function* counted() {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
      onBytes((chunk as Buffer).length);
      yield chunk as Buffer;
    }
  }
  return Readable.from(counted(), { objectMode: false });
}

export interface PubmedCheck {
  files: string[];
  run: PubmedRun;
  /** Citations read in all files (each version counts). */
  citations: number;
  failures: ImportFailure[];
  /** The files that break off, and where. */
  broken: Map<string, PubmedReadError>;
}

const brokenFailure = (file: string, err: PubmedReadError): ImportFailure => ({
  file,
  document: err.lastPmid ?? '-',
  reason:
    `${err.message.replace(/^pubmed: /, '')}; ${err.completed} citation(s) were read before it` +
    (err.lastPmid === undefined ? '' : `, the last complete one PMID ${err.lastPmid}`) +
    '; with --skip-bad those are loaded and the citations after them are left out',
});

/** Pass 1: every file read and checked, the version of each PMID to send planned; nothing kept but PMIDs. */
export async function checkPubmedFiles(files: readonly string[], io: ProgressIo): Promise<PubmedCheck> {
  const check: PubmedCheck = { files: [...files], run: new PubmedRun(), citations: 0, failures: [], broken: new Map() };
  if (files.length === 0) return check;
  const progress = new ImportProgress(
    io,
    'checked',
    files.reduce((n, f) => n + statSync(f).size, 0),
  );
  let bytes = 0;
  for (const [fileIndex, file] of files.entries()) {
    let ordinal = 0;
    try {
      for await (const event of pubmedEvents(
        openCounted(file, (n) => (bytes += n)),
        isGzip(file),
      )) {
        if (event.kind === 'deleted') check.run.delete(event.pmids);
        else if (event.kind === 'failure') check.failures.push({ file, document: event.pmid, reason: event.reason });
        else {
          const { pmid } = event.citation;
          if (ORGANISER_ID.test(pmid)) check.run.cite(pmid, keyOf(fileIndex, ordinal));
          else
            check.failures.push({
              file,
              document: pmid,
              reason: 'the PMID cannot be an organiser id (1 to 200 characters, no white space, no "/")',
            });
          ordinal += 1;
          check.citations += 1;
          if (check.citations % 10_000 === 0) progress.update(check.citations, bytes);
        }
      }
    } catch (err) {
      if (!(err instanceof PubmedReadError)) throw err;
      check.broken.set(file, err);
      check.failures.push(brokenFailure(file, err));
    }
  }
  progress.done(check.citations);
  return check;
}

/**
 * Pass 2: the files read again, the version pass 1 kept of each PMID sent in batches as
 * they fill (`send` awaited before reading on, so memory holds one batch). A file pass 1
 * found broken is read up to its break; one that breaks only now (changed in between) throws.
 */
export async function sendPubmedFiles(
  check: PubmedCheck,
  batchSize: number,
  send: (batch: PubmedCitation[]) => Promise<void>,
  io: ProgressIo,
): Promise<number> {
  const progress = new ImportProgress(
    io,
    'sent',
    check.files.reduce((n, f) => n + statSync(f).size, 0),
  );
  let bytes = 0;
  let sent = 0;
  let batch: PubmedCitation[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await send(batch);
    sent += batch.length;
    batch = [];
    progress.update(sent, bytes);
  };
  for (const [fileIndex, file] of check.files.entries()) {
    let ordinal = 0;
    try {
      for await (const event of pubmedEvents(
        openCounted(file, (n) => (bytes += n)),
        isGzip(file),
      )) {
        if (event.kind !== 'citation') continue;
        if (check.run.keeps(event.citation.pmid, keyOf(fileIndex, ordinal))) batch.push(event.citation);
        ordinal += 1;
        if (batch.length >= batchSize) await flush();
      }
    } catch (err) {
      // A failed send is the caller's to report; only a break pass 1 did not see is news here.
      if (!(err instanceof PubmedReadError)) throw err;
      if (!check.broken.has(file))
        throw new Error(`${file} changed while it was imported (${err.message}); run the import again`, { cause: err });
    }
  }
  await flush();
  progress.done(sent);
  return sent;
}
