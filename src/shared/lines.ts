// Streaming the lines of a release file (UniProt's, NCBI Taxonomy's dumps), gzip or not.
// Gzip is detected from the first two bytes (1f 8b), not from the file name, because
// release files are often renamed.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The file's lines without their line ends (LF or CRLF). */
export async function* readLines(path: string): AsyncGenerator<string> {
  // Open (and fail on a missing file) before creating the stream, whose own open error
  // would otherwise be emitted with nobody listening.
  const gzip = await isGzipFile(path);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let input: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip();
    // A corrupt or truncated archive must fail the build, not end it quietly.
    raw.on('error', (error) => gunzip.destroy(error));
    input = raw.pipe(gunzip);
  }
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    raw.destroy();
  }
}
