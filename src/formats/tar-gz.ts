// Export files as one gzip-compressed tar archive, as PubAnnotation takes uploads of many
// documents and as any tar reads: tar-stream writes the ustar entries (with a PAX header
// for a name too long or not ASCII), node:zlib compresses. All in memory, like the exports.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
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
