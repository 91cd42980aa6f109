// tarGzStream: a .tar.gz written entry by entry while it is read. A whole archive reads back
// entry for entry (folders in the names too); a failing writer or a reader that goes away
// ends the stream destroyed, never finished as if whole; a name that would climb out of the
// folder it is extracted into is refused.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extract } from 'tar-stream';
import { Readable } from 'node:stream';
import { tarGzStream, type AddArchiveFile } from '../../src/formats/tar-gz.ts';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function entries(archive: Buffer): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const parts: Buffer[] = [];
      for await (const part of entry) parts.push(part);
      out.push([entry.header.name, Buffer.concat(parts).toString('utf8')]);
    }
  })();
  reader.end(gunzipSync(archive));
  await done;
  return out;
}

describe('tarGzStream', () => {
  it('writes the entries in order, paths and all', async () => {
    const big = 'x'.repeat(300_000);
    const stream = tarGzStream(async (add) => {
      await add({ name: 'runs/INT/T1_R1.tsv', content: 'd1\tP38398\n' });
      await add({ name: 'runs/MENTION/T1_S1/d1.ann', content: big });
      await add({ name: 'manifest.json', content: '{}' });
    });
    expect(await entries(await collect(stream))).toEqual([
      ['runs/INT/T1_R1.tsv', 'd1\tP38398\n'],
      ['runs/MENTION/T1_S1/d1.ann', big],
      ['manifest.json', '{}'],
    ]);
  });

  it('ends destroyed when the writer fails, after what it wrote', async () => {
    const stream = tarGzStream(async (add) => {
      await add({ name: 'a.tsv', content: 'a' });
      throw new Error('the database went away');
    });
    await expect(collect(stream)).rejects.toThrow(/the database went away/);
  });

  it('stops the writer when the reader goes away', async () => {
    let written = 0;
    let failed: unknown;
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const stream = tarGzStream(async (add: AddArchiveFile) => {
      try {
        for (let i = 0; i < 1000; i++) {
          await add({ name: `f${i}.txt`, content: 'y'.repeat(100_000) });
          written++;
        }
      } catch (err) {
        failed = err;
      } finally {
        settle();
      }
    });
    stream.once('data', () => stream.destroy());
    stream.on('error', () => undefined);
    await settled;
    expect(failed).toBeInstanceOf(Error);
    expect(written).toBeLessThan(1000);
  });

  it('refuses a name that climbs out of its folder', async () => {
    for (const name of ['../x', '/etc/x', 'a/../../x', 'a//b', 'a\\b']) {
      const stream = tarGzStream(async (add) => await add({ name, content: '' }));
      await expect(collect(stream)).rejects.toThrow(/not a relative path of plain names/);
    }
  });
});
