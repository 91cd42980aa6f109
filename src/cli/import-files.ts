// What `metaserver import` reads, before anything is sent: every article of the paths
// given, and every file or document that cannot be one with its reason. The kinds:
//   .txt         plain text (one article), or PubTator text when its first line is "PMID|t|…"
//   .nxml        JATS / PMC NXML (one article)
//   .xml         BioC XML when its root is <collection> or <document>, else JATS
//   .json        BioC JSON (a collection, a document, a list, the PubTator3 wrapper)
//   .pubtator    PubTator text
//   .tar.gz/.tgz a PMC Open Access package: each .nxml inside is an article
//   .jsonl       BioC JSON lines: one document or collection per line (PubTator3 bulk files)
//   .xml.gz      PubMed / MEDLINE XML, as is a .xml whose root is PubmedArticleSet or
//                MedlineCitationSet: those are streamed in two passes (import-pubmed.ts), not read here
// (`.bioc.xml`, `.bioc.json`, `.pubtator.txt` are these). Everything is converted and
// checked here, so an import that refuses bad documents sends nothing at all. A corpus
// document is sent as a corpus of one (`bioc` or `pubtator`, its passages and section
// names with it, without its annotations), so it is stored with its source format and
// sections as the route stores a corpus.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FormatError } from '../formats/common.ts';
import { articlesToBioc } from '../formats/bioc-model.ts';
import type { CorpusDocument } from '../formats/bioc-corpus.ts';
import { readCorpusFileEach, type CorpusFailure, type CorpusFormat } from '../formats/corpus-file.ts';
import { jatsToText } from '../formats/jats.ts';
import { readPmcPackage } from '../formats/pmc-package.ts';
import { writePubTator } from '../formats/pubtator.ts';

export interface ImportItem {
  id: string;
  /** Where it came from, named in messages. */
  file: string;
  text?: string;
  xml?: string;
  /** A corpus document as BioC JSON of one document, or as PubTator text of one. */
  bioc?: string;
  pubtator?: string;
}

export type ImportFailure = CorpusFailure;

const KINDS = ['.tar.gz', '.tgz', '.xml.gz', '.txt', '.nxml', '.xml', '.jsonl', '.json', '.pubtator'];
const kindOf = (name: string): string | undefined => KINDS.find((k) => name.toLowerCase().endsWith(k));
/** The organiser id rule of the article routes. */
const ORGANISER_ID = /^[^\s/]{1,200}$/;

/** The files to read: each path, or the files of each directory (sorted by name: load order is queue order). */
export function importFiles(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path)
      .filter((name) => kindOf(name) !== undefined && statSync(join(path, name)).isFile())
      .sort()
      .map((name) => join(path, name));
  });
}

const stem = (file: string) => {
  const name = basename(file);
  const kind = kindOf(name) ?? '';
  return name.slice(0, name.length - kind.length).replace(/\.(bioc|pubtator)$/i, '');
};

/** The document as a corpus of one in its own format: text, passages and section names (the annotations are gold's, not the article's). */
function corpusPayload(d: CorpusDocument, format: CorpusFormat): Pick<ImportItem, 'bioc' | 'pubtator'> {
  if (format === 'pubtator') return { pubtator: writePubTator([{ id: d.id, text: d.text, sections: d.sections, annotations: [] }]) };
  return { bioc: JSON.stringify(articlesToBioc([{ id: d.id, text: d.text, sections: d.sections, answers: [] }], []).documents[0]) };
}

function corpusItems(content: string, file: string, format: CorpusFormat): { items: ImportItem[]; failures: ImportFailure[] } {
  const { documents, failures } = readCorpusFileEach(content, file, format);
  const items: ImportItem[] = [];
  for (const d of documents) {
    if (!ORGANISER_ID.test(d.id))
      failures.push({
        file,
        document: d.id,
        reason: 'the document id cannot be an organiser id (1 to 200 characters, no white space, no "/")',
      });
    else if (d.text.trim() === '') failures.push({ file, document: d.id, reason: 'the document has no text' });
    else items.push({ id: d.id, file, ...corpusPayload(d, format) });
  }
  return { items, failures };
}

function jatsItem(id: string, xml: string, file: string): { items: ImportItem[]; failures: ImportFailure[] } {
  try {
    jatsToText(xml);
    return { items: [{ id, file, xml }], failures: [] };
  } catch (err) {
    if (err instanceof FormatError) return { items: [], failures: [{ file, document: id, reason: err.message }] };
    throw err;
  }
}

async function readOne(file: string): Promise<{ items: ImportItem[]; failures: ImportFailure[] }> {
  const kind = kindOf(file);
  if (kind === '.tar.gz' || kind === '.tgz') {
    const articles = await readPmcPackage(readFileSync(file), file);
    if (articles.length === 0) return { items: [], failures: [{ file, document: '-', reason: 'the archive holds no .nxml file' }] };
    const each = articles.map((a) => jatsItem(a.id, a.xml, `${file}:${a.path}`));
    return { items: each.flatMap((e) => e.items), failures: each.flatMap((e) => e.failures) };
  }
  const content = readFileSync(file, 'utf8');
  const root = content.replace(/^\uFEFF/, '').trimStart();
  if (kind === '.json') return corpusItems(content, file, 'bioc-json');
  if (kind === '.jsonl') return corpusItems(content, file, 'bioc-jsonl');
  if (kind === '.pubtator' || (kind === '.txt' && /^[^|\t\s]+\|t\|/.test(root))) return corpusItems(content, file, 'pubtator');
  if (kind === '.xml' && /^(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(collection|document)[\s>]/.test(root))
    return corpusItems(content, file, 'bioc-xml');
  if (kind === '.xml' || kind === '.nxml') return jatsItem(stem(file), content, file);
  if (content.trim() === '') return { items: [], failures: [{ file, document: stem(file), reason: 'the file is empty' }] };
  return { items: [{ id: stem(file), file, text: content }], failures: [] };
}

/** Every article of the files and every failure (a file that cannot be read at all is one failure). */
export async function readImportFiles(files: readonly string[]): Promise<{ items: ImportItem[]; failures: ImportFailure[] }> {
  const items: ImportItem[] = [];
  const failures: ImportFailure[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    let read;
    try {
      read = await readOne(file);
    } catch (err) {
      if (!(err instanceof FormatError) && !(err instanceof Error && 'code' in err)) throw err;
      failures.push({ file, document: '-', reason: err.message });
      continue;
    }
    failures.push(...read.failures);
    for (const item of read.items) {
      const first = seen.get(item.id);
      if (first !== undefined)
        failures.push({ file: item.file, document: item.id, reason: `the id is also the id of an article of ${first}` });
      else {
        seen.set(item.id, item.file);
        items.push(item);
      }
    }
  }
  return { items, failures };
}
