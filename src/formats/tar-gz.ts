// Export files as one gzip-compressed tar archive, as PubAnnotation takes uploads of many
// documents and as any tar reads: tar-stream writes the ustar entries (with a PAX header
// for a name too long or not ASCII), node:zlib compresses. All in memory, like the exports;
// or streamed (tarGzStream), entry by entry as the writer hands them over.
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { FormatError } from './common.ts';

export interface ArchiveFile {
  name: string;
  content: string;
}

const gzipped = promisify(gzip);

/** A `.tar.gz` of `files`, each a plain file at the top of the archive (names must be bare file names). */
export async function tarGz(files: readonly ArchiveFile[], mtime: Date = new Date()): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk);
  })();
  for (const file of files) {
    // A name with a path in it could write outside the directory it is extracted into.
    if (file.name.includes('/') || file.name.includes('\\') || file.name === '.' || file.name === '..' || file.name === '') {
      throw new FormatError('tar', `"${file.name}" is not a plain file name`);
    }
    archive.entry({ name: file.name, mode: 0o644, mtime }, file.content);
  }
  archive.finalize();
  await collected;
  return gzipped(Buffer.concat(chunks));
}

/** Hands one entry (a path in the archive: folders are made as `tar` extracts it) to the archive; resolves once it is taken. */
export type AddArchiveFile = (file: ArchiveFile) => Promise<void>;

/**
 * A `.tar.gz` written while it is read: `write` adds the entries one at a time, each awaited,
 * so the archive holds one entry's bytes (and the buffers of the streams) at a time. A
 * failing writer, or a reader that goes away, ends the stream destroyed, not finished: a
 * truncated archive never passes for a whole one.
 */
export function tarGzStream(write: (add: AddArchiveFile) => Promise<void>, mtime: Date = new Date()): Readable {
  const archive = pack();
  const compressed = createGzip();
  archive.pipe(compressed);
  archive.on('error', (err: Error) => compressed.destroy(err));
  // The reader gone (the client closed the connection): the writer's next entry fails and it stops.
  compressed.on('close', () => archive.destroy());
  const add: AddArchiveFile = (file) => {
    const name = file.name;
    if (name.startsWith('/') || name.includes('\\') || name.split('/').some((part) => part === '..' || part === '.' || part === '')) {
      return Promise.reject(new FormatError('tar', `"${name}" is not a relative path of plain names`));
    }
    return new Promise((resolve, reject) => {
      const entry = archive.entry({ name, mode: 0o644, mtime }, file.content, (err) => (err ? reject(err) : resolve()));
      // A destroyed archive fails its entry: the callback has the error, which must not go unheard.
      entry.on('error', () => undefined);
    });
  };
  write(add).then(
    // A reader gone meanwhile has taken the archive with it: nothing to finish.
    () => (compressed.destroyed ? undefined : archive.finalize()),
    (err: unknown) => compressed.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return compressed;
}
