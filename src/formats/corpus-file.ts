// A corpus file of any format the field ships, told apart by its content (a file name
// alone often lies: PubTator files come as `.txt`, BioC JSON as `.json` or `.bioc`):
// `<` starts BioC XML, `{` or `[` BioC JSON — JSON lines when the first line is a whole
// object and more follow —, anything else is read as PubTator text.
// Every error names the file; the readers name the document and the reason.

import {
  biocCorpus,
  biocCorpusEach,
  corpusHeader,
  type CorpusDocument,
  type CorpusDocumentRead,
  type CorpusHeader,
  type CorpusReadOptions,
} from './bioc-corpus.ts';
import { readBiocJson, readBiocJsonLines } from './bioc-json.ts';
import { readBiocXml } from './bioc-xml.ts';
import { FormatError } from './common.ts';
import { readPubTator, readPubTatorEach } from './pubtator.ts';

export type CorpusFormat = 'bioc-xml' | 'bioc-json' | 'bioc-jsonl' | 'pubtator';

/**
 * JSON lines: a first line that is an object on its own (`{…}`) with more text after it.
 * Pretty-printed JSON opens with a line `{` alone; a single line is JSON either way.
 */
function isJsonLines(content: string): boolean {
  const newline = content.indexOf('\n');
  if (newline < 0 || content.slice(newline + 1).trim() === '') return false;
  const first = content.slice(0, newline).trim();
  return first.startsWith('{') && first.endsWith('}');
}

export function corpusFormatOf(content: string): CorpusFormat {
  const trimmed = content.replace(/^\uFEFF/, '').trimStart();
  const start = trimmed[0];
  if (start === '<') return 'bioc-xml';
  if (start === '{') return isJsonLines(trimmed) ? 'bioc-jsonl' : 'bioc-json';
  return start === '[' ? 'bioc-json' : 'pubtator';
}

function readBioc(content: string, format: Exclude<CorpusFormat, 'pubtator'>) {
  return format === 'bioc-xml' ? readBiocXml(content) : format === 'bioc-jsonl' ? readBiocJsonLines(content) : readBiocJson(content);
}

/** The documents of a corpus file; `format` when the caller knows it, else told from the content. */
export function readCorpusFile(content: string, file: string, format: CorpusFormat = corpusFormatOf(content)): CorpusDocument[] {
  try {
    if (format === 'pubtator') return readPubTator(content, file);
    const documents = biocCorpus(readBioc(content, format));
    if (documents.length === 0) throw new FormatError('bioc', 'the collection holds no document');
    return documents;
  } catch (err) {
    if (err instanceof FormatError && !err.message.includes(file))
      throw new FormatError(err.format, `${file}: ${err.message.replace(/^[a-z-]+: /, '')}`);
    throw err;
  }
}

/** A document that could not be read: the file, the document and the reason. */
export interface CorpusFailure {
  file: string;
  document: string;
  reason: string;
}

/** An annotation left out of a document that was loaded (`badAnnotations: 'skip'`): file, document, annotation id, why. */
export interface CorpusAnnotationLeftOut {
  file: string;
  document: string;
  annotation: string;
  reason: string;
}

/**
 * What readCorpusFileEach gives: `header` for a BioC collection (XML or JSON), absent for
 * PubTator and bare documents; `annotationsLeftOut` empty unless `badAnnotations: 'skip'`.
 */
export interface CorpusFileRead {
  documents: CorpusDocument[];
  failures: CorpusFailure[];
  annotationsLeftOut: CorpusAnnotationLeftOut[];
  header?: CorpusHeader;
}

/**
 * The readable documents of a corpus file and, for each other one, why not: a batch that
 * loads the good documents says which were left out. An annotation that does not fit its
 * text refuses its document, or with `badAnnotations: 'skip'` is left out of it (named in
 * `annotationsLeftOut`), the document kept. A file that cannot be read at all (not XML,
 * not JSON, no document) throws a FormatError naming the file.
 */
export function readCorpusFileEach(
  content: string,
  file: string,
  format: CorpusFormat = corpusFormatOf(content),
  options: CorpusReadOptions = {},
): CorpusFileRead {
  let each: CorpusDocumentRead[];
  let header: CorpusHeader | undefined;
  try {
    if (format === 'pubtator') each = readPubTatorEach(content, file, options);
    else {
      const collection = readBioc(content, format);
      header = corpusHeader(collection);
      each = biocCorpusEach(collection, options);
    }
  } catch (err) {
    if (err instanceof FormatError && !err.message.includes(file))
      throw new FormatError(err.format, `${file}: ${err.message.replace(/^[a-z-]+: /, '')}`);
    throw err;
  }
  if (each.length === 0) throw new FormatError('bioc', `${file}: the collection holds no document`);
  const documents: CorpusDocument[] = [];
  const failures: CorpusFailure[] = [];
  const annotationsLeftOut: CorpusAnnotationLeftOut[] = [];
  for (const d of each) {
    if (d.document) documents.push(d.document);
    else failures.push({ file, document: d.id, reason: (d.error ?? '').replace(/^[a-z-]+: /, '') });
    for (const a of d.annotationsLeftOut ?? []) annotationsLeftOut.push({ file, ...a });
  }
  return { documents, failures, annotationsLeftOut, ...(header ? { header } : {}) };
}
