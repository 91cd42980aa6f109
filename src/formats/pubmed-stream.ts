// A PubMed file as a stream of events: the bytes (gzip-compressed or not) decoded as UTF-8
// piece by piece and fed to the push parser (pubmed.ts), so memory holds one piece and one
// citation, never the file. The caller opens the file (formats do no I/O of their own).
//
// A file that breaks off — a truncated or corrupt `.xml.gz`, malformed XML, bytes that are
// not UTF-8 — throws a PubmedReadError after every event read before it was yielded: it
// says how many citations were complete and the PMID of the last one, so the caller can name
// it and knows the citations after it are the ones left out.
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { strictUtf8Stream } from '../shared/utf8.ts';
import { FormatError } from './common.ts';
import { PubmedParser, type PubmedEvent } from './pubmed.ts';

export class PubmedReadError extends FormatError {
  constructor(
    message: string,
    /** Citations complete before the file broke off. */
    readonly completed: number,
    /** The PMID of the last complete citation, if any. */
    readonly lastPmid: string | undefined,
  ) {
    super('pubmed', message);
    this.name = 'PubmedReadError';
  }
}

function reason(err: unknown): string {
  const e = err as Error & { code?: string };
  if (err instanceof FormatError) return e.message.replace(/^pubmed: /, '');
  if (typeof e.code === 'string' && e.code.startsWith('Z_'))
    return `the gzip data is truncated or corrupt (${e.message}); download the file again`;
  if (e instanceof TypeError && /decode|encoded/i.test(e.message)) return 'the file is not UTF-8 text';
  return e.message;
}

/** The events of a PubMed file, in file order; `gzip` when its bytes are gzip-compressed. */
export async function* pubmedEvents(input: Readable, gzip: boolean): AsyncGenerator<PubmedEvent> {
  const bytes = gzip ? input.pipe(createGunzip()) : input;
  // pipe() does not pass the source's errors on; the reader must see them.
  if (gzip) input.on('error', (err) => bytes.destroy(err));
  const decoder = strictUtf8Stream();
  const parser = new PubmedParser();
  try {
    for await (const chunk of bytes) {
      let events: PubmedEvent[];
      try {
        events = parser.write(decoder.decode(chunk as Buffer, { stream: true })).drain();
      } catch (err) {
        // The events of this piece that came before the break are still good.
        yield* parser.drain();
        throw err;
      }
      yield* events;
    }
    const rest = parser.write(decoder.decode()).drain();
    yield* rest;
    yield* parser.close();
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    throw new PubmedReadError(reason(err), parser.completed, parser.lastPmid);
  } finally {
    bytes.destroy();
    input.destroy();
  }
}
