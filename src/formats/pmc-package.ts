// PMC Open Access packages: a `.tar.gz` holding `PMCxxxx/<name>.nxml` beside the article's
// images, PDF and supplementary files. Read in memory (tar-stream, node:zlib); only the
// `.nxml` entries are kept. An article's id is the folder it stands in (`PMCxxxx`), or the
// file name without `.nxml` when it stands at the top or beside another `.nxml`.
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { FormatError } from './common.ts';

export interface PackagedArticle {
  /** The organiser id: the PMC folder, else the file name without `.nxml`. */
  id: string;
  /** The entry's path inside the archive. */
  path: string;
  xml: string;
}

/** The `.nxml` articles of a gzip-compressed tar archive, in archive order. */
export async function readPmcPackage(archive: Buffer, file: string): Promise<PackagedArticle[]> {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch (err) {
    throw new FormatError('tar', `${file} is not gzip-compressed: ${(err as Error).message}`);
  }
  const entries: Array<{ path: string; xml: string }> = [];
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk);
      if (entry.header.type === 'file' && entry.header.name.toLowerCase().endsWith('.nxml'))
        entries.push({ path: entry.header.name, xml: Buffer.concat(chunks).toString('utf8') });
    }
  })();
  reader.end(tar);
  try {
    await done;
  } catch (err) {
    throw new FormatError('tar', `${file} is not a tar archive: ${(err as Error).message}`);
  }
  const perFolder = new Map<string, number>();
  const folderOf = (path: string) =>
    path
      .split('/')
      .filter((p) => p !== '' && p !== '.')
      .slice(0, -1)
      .join('/');
  for (const e of entries) perFolder.set(folderOf(e.path), (perFolder.get(folderOf(e.path)) ?? 0) + 1);
  return entries.map((e) => {
    const folder = folderOf(e.path);
    const base = e.path
      .split('/')
      .pop()!
      .replace(/\.nxml$/i, '');
    const id = folder !== '' && perFolder.get(folder) === 1 ? folder.split('/').pop()! : base;
    return { id, path: e.path, xml: e.xml };
  });
}
