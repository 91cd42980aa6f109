// PMC Open Access packages: a `.tar.gz` holding articles as JATS beside their images, PDFs
// and supplementary files. Two layouts are read, in memory (tar-stream, node:zlib):
// - one article's package: `PMCxxxx/<name>.nxml` beside its figures;
// - the bulk packages (`oa_comm_xml.PMC00xxxxxx.baseline…tar.gz`): many `PMCxxxx.xml`
//   entries in one folder.
// Every `.nxml` entry is an article; an `.xml` entry is one when its root is a JATS
// `<article>` (or a one-article `<pmc-articleset>`), else it is skipped and named. Other
// entries are left out without a word. Each article's bytes are decoded by their declared
// encoding (text-decoding.ts). Where the package puts an article — the folder it stands in
// (`PMCxxxx`), or its file name without the extension when it stands at the top or beside
// another article — is its id unless the caller finds a better one inside (the PMCID).
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { FormatError } from './common.ts';
import { decodeXml } from './text-decoding.ts';
import { xmlRootElement } from './xml-root.ts';

export interface PackagedArticle {
  /** The organiser id the package gives it: the PMC folder, else the file name without `.nxml`/`.xml`. */
  id: string;
  /** Which of the two `id` is. */
  idSource: 'package-folder' | 'file-name';
  /** The entry's path inside the archive. */
  path: string;
  xml: string;
}

/** An entry that is not loaded, and why (its path inside the archive). */
export interface PackageEntryProblem {
  path: string;
  reason: string;
}

export interface PmcPackage {
  articles: PackagedArticle[];
  /** `.xml` entries that are not JATS articles. */
  skipped: PackageEntryProblem[];
  /** Article entries whose bytes cannot be read as text. */
  failures: PackageEntryProblem[];
}

const isArticleName = (name: string) => /\.n?xml$/i.test(name);

/** The regular files of a tar archive whose names end in `.nxml` or `.xml`, with their bytes, in archive order. */
async function xmlEntries(tar: Buffer, file: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  const entries: Array<{ path: string; bytes: Buffer }> = [];
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk);
      if (entry.header.type === 'file' && isArticleName(entry.header.name))
        entries.push({ path: entry.header.name, bytes: Buffer.concat(chunks) });
    }
  })();
  reader.end(tar);
  try {
    await done;
  } catch (err) {
    throw new FormatError('tar', `${file} is not a tar archive: ${(err as Error).message}`);
  }
  return entries;
}

const folderOf = (path: string) =>
  path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .slice(0, -1)
    .join('/');

/** The articles of a gzip-compressed tar archive in archive order, the `.xml` entries that are not JATS, and the entries that cannot be read. */
export async function readPmcPackage(archive: Buffer, file: string): Promise<PmcPackage> {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch (err) {
    throw new FormatError('tar', `${file} is not gzip-compressed: ${(err as Error).message}`);
  }
  const result: PmcPackage = { articles: [], skipped: [], failures: [] };
  const found: Array<{ path: string; xml: string }> = [];
  for (const { path, bytes } of await xmlEntries(tar, file)) {
    let xml: string;
    try {
      xml = decodeXml(bytes, `${file}:${path}`);
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      result.failures.push({ path, reason: err.message.replace(/^encoding: /, '') });
      continue;
    }
    const root = xmlRootElement(xml.slice(0, 65536));
    if (/\.nxml$/i.test(path) || root === 'article' || root === 'pmc-articleset') found.push({ path, xml });
    else result.skipped.push({ path, reason: root === undefined ? 'not XML' : `not a JATS article: its root element is <${root}>` });
  }
  const perFolder = new Map<string, number>();
  for (const e of found) perFolder.set(folderOf(e.path), (perFolder.get(folderOf(e.path)) ?? 0) + 1);
  for (const e of found) {
    const folder = folderOf(e.path);
    const inOwnFolder = folder !== '' && perFolder.get(folder) === 1;
    const base = e.path
      .split('/')
      .pop()!
      .replace(/\.n?xml$/i, '');
    result.articles.push({
      id: inOwnFolder ? folder.split('/').pop()! : base,
      idSource: inOwnFolder ? 'package-folder' : 'file-name',
      path: e.path,
      xml: e.xml,
    });
  }
  return result;
}
