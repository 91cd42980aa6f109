// What `metaserver import` reads, before anything is sent: every article of the paths
// given, and every file or document that cannot be one with its reason. The kinds, by the
// end of the name (import-kinds.ts):
//   .txt         plain text (one article), or PubTator text when its first line is "PMID|t|…";
//                a .txt that is clearly XML of a known format or whole JSON is refused
//   .nxml        JATS / PMC NXML (one article)
//   .xml         BioC XML when its root is <collection> or <document>, else JATS
//   .json        BioC JSON (a collection, a document, a list, the PubTator3 wrapper)
//   .pubtator    PubTator text
//   .tar.gz/.tgz a PMC Open Access package: each .nxml, and each .xml holding a JATS article
//   .jsonl       BioC JSON lines: one document or collection per line (PubTator3 bulk files)
//   .xml.gz      PubMed / MEDLINE XML, as is a .xml whose root is PubmedArticleSet or
//                MedlineCitationSet: those are streamed in two passes (import-pubmed.ts), not read here
// (`.bioc.xml`, `.bioc.json`, `.pubtator.txt` are these). A file named otherwise is refused
// when given by name and skipped (and listed) when found in a directory; text is decoded
// strictly (formats/text-decoding.ts: XML by its declared encoding, the rest UTF-8), so
// gzip, binary and Latin-1 bytes are refused, never stored as U+FFFD. Everything is
// converted and checked here, so an import that refuses bad documents sends nothing at all.
// A corpus document is sent as a corpus of one (`bioc` or `pubtator`, its passages and
// section names with it, without its annotations), so it is stored with its source format
// and sections as the route stores a corpus.
//
// A JATS article's id is the PMCID it names (`<article-id pub-id-type="pmc">`), else its
// PMID, else its file name; in a PMC package the PMCID inside, else the package's PMC
// folder, else the PMID, else the folder or file name. Each item says where its id came from.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError } from '../formats/common.ts';
import { articlesToBioc } from '../formats/bioc-model.ts';
import type { CorpusDocument } from '../formats/bioc-corpus.ts';
import { readCorpusFileEach, type CorpusAnnotationLeftOut, type CorpusFailure, type CorpusFormat } from '../formats/corpus-file.ts';
import { readJatsArticle } from '../formats/jats.ts';
import { readPmcPackage, type PackagedArticle } from '../formats/pmc-package.ts';
import { writePubTator } from '../formats/pubtator.ts';
import { decodeText, decodeXml } from '../formats/text-decoding.ts';
import { xmlFormatOf, xmlRootElement } from '../formats/xml-root.ts';
import { fileStart, isPmcFileList, kindOf, notPlainText, PMC_FILE_LIST, stem, unknownKindReason } from './import-kinds.ts';

/** Where an article's organiser id came from. */
export type IdSource = 'pmcid' | 'pmid' | 'package-folder' | 'file-name' | 'document';

export interface ImportItem {
  id: string;
  idSource: IdSource;
  /** Where it came from, named in messages. */
  file: string;
  text?: string;
  xml?: string;
  /** A corpus document as BioC JSON of one document, or as PubTator text of one. */
  bioc?: string;
  pubtator?: string;
}

export type ImportFailure = CorpusFailure;

/** A file (or package entry) not read, and why: named in the summary and on stderr, never an error. */
export interface SkippedFile {
  file: string;
  reason: string;
}

interface Read {
  items: ImportItem[];
  failures: ImportFailure[];
  skipped: SkippedFile[];
  /**
   * A corpus document's annotations that do not fit its text. The article is sent without
   * its annotations (they are gold's), so its text stays good: the import refuses by
   * default, naming each, and with --skip-bad loads the text and lists them.
   */
  annotationsLeftOut?: CorpusAnnotationLeftOut[];
}

/** The organiser id rule of the article routes. */
const ORGANISER_ID = /^[^\s/]{1,200}$/;

/**
 * The files to read: each path given (whatever its name: one import does not read is
 * refused when read), or the files of each directory that import reads (sorted by name:
 * load order is queue order); the directory's other entries are skipped, each with why.
 */
export function importFiles(paths: readonly string[]): { files: string[]; skipped: SkippedFile[] } {
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    if (!statSync(path).isDirectory()) {
      files.push(path);
      continue;
    }
    for (const name of readdirSync(path).sort()) {
      const file = join(path, name);
      if (statSync(file).isDirectory())
        skipped.push({ file, reason: 'a directory: import reads the files of the directories given, not of the directories inside them' });
      else if (isPmcFileList(name)) skipped.push({ file, reason: PMC_FILE_LIST });
      else if (kindOf(name) === undefined) skipped.push({ file, reason: unknownKindReason(fileStart(file)) });
      else files.push(file);
    }
  }
  return { files, skipped };
}

/** The document as a corpus of one in its own format: text, passages and section names (the annotations are gold's, not the article's). */
function corpusPayload(d: CorpusDocument, format: CorpusFormat): Pick<ImportItem, 'bioc' | 'pubtator'> {
  if (format === 'pubtator') return { pubtator: writePubTator([{ id: d.id, text: d.text, sections: d.sections, annotations: [] }]) };
  return { bioc: JSON.stringify(articlesToBioc([{ id: d.id, text: d.text, sections: d.sections, answers: [] }], []).documents[0]) };
}

function corpusItems(content: string, file: string, format: CorpusFormat): Read {
  const { documents, failures, annotationsLeftOut } = readCorpusFileEach(content, file, format, { badAnnotations: 'skip' });
  const items: ImportItem[] = [];
  for (const d of documents) {
    if (!ORGANISER_ID.test(d.id))
      failures.push({
        file,
        document: d.id,
        reason: 'the document id cannot be an organiser id (1 to 200 characters, no white space, no "/")',
      });
    else if (d.text.trim() === '') failures.push({ file, document: d.id, reason: 'the document has no text' });
    else items.push({ id: d.id, idSource: 'document', file, ...corpusPayload(d, format) });
  }
  return { items, failures, skipped: [], annotationsLeftOut };
}

/** A PMC folder's name is a PMCID: in a package it stands before the PMID inside. */
const isPmcid = (id: string) => /^PMC\d+$/.test(id);

/** A JATS article, its id the PMCID inside, else (in a package, a PMC folder) the PMID, else `given` (the file or package's). */
function jatsItem(given: Pick<PackagedArticle, 'id' | 'idSource'>, xml: string, file: string): Read {
  try {
    const { ids } = readJatsArticle(xml);
    let chosen: Pick<ImportItem, 'id' | 'idSource'> = given;
    if (ids.pmcid !== undefined) chosen = { id: ids.pmcid, idSource: 'pmcid' };
    else if (ids.pmid !== undefined && !(given.idSource === 'package-folder' && isPmcid(given.id)))
      chosen = { id: ids.pmid, idSource: 'pmid' };
    return { items: [{ ...chosen, file, xml }], failures: [], skipped: [] };
  } catch (err) {
    if (err instanceof FormatError) return { items: [], failures: [{ file, document: given.id, reason: err.message }], skipped: [] };
    throw err;
  }
}

async function packageItems(file: string): Promise<Read> {
  const pkg = await readPmcPackage(readFileSync(file), file);
  const skipped = pkg.skipped.map((s) => ({ file: `${file}:${s.path}`, reason: s.reason }));
  const failures = pkg.failures.map((f) => ({ file: `${file}:${f.path}`, document: '-', reason: f.reason }));
  if (pkg.articles.length === 0 && failures.length === 0) {
    const why = skipped.length > 0 ? ` (${skipped.length} .xml entries are not JATS articles)` : '';
    failures.push({
      file,
      document: '-',
      reason: `the archive holds no JATS article: no .nxml entry, no .xml entry whose root is <article>${why}`,
    });
  }
  const each = pkg.articles.map((a) => jatsItem(a, a.xml, `${file}:${a.path}`));
  return { items: each.flatMap((e) => e.items), failures: [...failures, ...each.flatMap((e) => e.failures)], skipped };
}

const refused = (file: string, reason: string): Read => ({ items: [], failures: [{ file, document: '-', reason }], skipped: [] });

async function readOne(file: string): Promise<Read> {
  const kind = kindOf(file);
  if (kind === undefined) return refused(file, unknownKindReason(fileStart(file)));
  if (isPmcFileList(file)) return refused(file, PMC_FILE_LIST);
  if (kind === '.tar.gz' || kind === '.tgz') return packageItems(file);
  const bytes = readFileSync(file);
  const isXml = kind === '.xml' || kind === '.nxml';
  const content = isXml ? decodeXml(bytes, file) : decodeText(bytes, file);
  const root = content.replace(/^\uFEFF/, '').trimStart();
  if (kind === '.json') return corpusItems(content, file, 'bioc-json');
  if (kind === '.jsonl') return corpusItems(content, file, 'bioc-jsonl');
  if (kind === '.pubtator' || (kind === '.txt' && /^[^|\t\s]+\|t\|/.test(root))) return corpusItems(content, file, 'pubtator');
  if (kind === '.xml' && /^(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(collection|document)[\s>]/.test(root))
    return corpusItems(content, file, 'bioc-xml');
  if (isXml) {
    const top = xmlRootElement(content.slice(0, 65536));
    if (top !== undefined && xmlFormatOf(top) === undefined)
      return refused(
        file,
        `its root element is <${top}>; import reads XML as BioC (<collection>, <document>), JATS (<article>) or PubMed (<PubmedArticleSet>, <MedlineCitationSet>)`,
      );
    return jatsItem({ id: stem(file), idSource: 'file-name' }, content, file);
  }
  if (content.trim() === '') return refused(file, 'the file is empty');
  const notText = notPlainText(content);
  if (notText !== undefined) return refused(file, notText);
  return { items: [{ id: stem(file), idSource: 'file-name', file, text: content }], failures: [], skipped: [] };
}

/** Every article of the files, every failure (a file that cannot be read at all is one failure) and every package entry skipped. */
export async function readImportFiles(files: readonly string[]): Promise<Required<Read>> {
  const all: Required<Read> = { items: [], failures: [], skipped: [], annotationsLeftOut: [] };
  const seen = new Map<string, string>();
  for (const file of files) {
    let read;
    try {
      read = await readOne(file);
    } catch (err) {
      if (!(err instanceof FormatError) && !(err instanceof Error && 'code' in err)) throw err;
      all.failures.push({ file, document: '-', reason: err.message.replace(/^encoding: /, '') });
      continue;
    }
    all.failures.push(...read.failures);
    all.skipped.push(...read.skipped);
    all.annotationsLeftOut.push(...(read.annotationsLeftOut ?? []));
    for (const item of read.items) {
      const first = seen.get(item.id);
      if (first !== undefined)
        all.failures.push({ file: item.file, document: item.id, reason: `the id is also the id of an article of ${first}` });
      else {
        seen.set(item.id, item.file);
        all.items.push(item);
      }
    }
  }
  return all;
}

/** Where the ids came from, for the summary: a count per source, and the ids taken from a file name (the ones to check). */
export function idReport(items: readonly ImportItem[]): { idSources: Partial<Record<IdSource, number>>; idsFromFileName: string[] } {
  const idSources: Partial<Record<IdSource, number>> = {};
  for (const item of items) idSources[item.idSource] = (idSources[item.idSource] ?? 0) + 1;
  return { idSources, idsFromFileName: items.filter((i) => i.idSource === 'file-name').map((i) => i.id) };
}
