// A corpus file of any format the field ships, told apart by its content (a file name
// alone often lies: PubTator files come as `.txt`, BioC JSON as `.json` or `.bioc`):
// `<` starts BioC XML, `{` or `[` BioC JSON, anything else is read as PubTator text.
// Every error names the file; the readers name the document and the reason.

import { biocCorpus, biocCorpusEach, type CorpusDocument } from './bioc-corpus.ts';
import { readBiocJson } from './bioc-json.ts';
import { readBiocXml } from './bioc-xml.ts';
import { FormatError } from './common.ts';
import { readPubTator, readPubTatorEach } from './pubtator.ts';

export type CorpusFormat = 'bioc-xml' | 'bioc-json' | 'pubtator';

export function corpusFormatOf(content: string): CorpusFormat {
  const start = content.replace(/^\uFEFF/, '').trimStart()[0];
  return start === '<' ? 'bioc-xml' : start === '{' || start === '[' ? 'bioc-json' : 'pubtator';
}

/** The documents of a corpus file; `format` when the caller knows it, else told from the content. */
export function readCorpusFile(content: string, file: string, format: CorpusFormat = corpusFormatOf(content)): CorpusDocument[] {
  try {
    if (format === 'pubtator') return readPubTator(content, file);
    const documents = biocCorpus(format === 'bioc-xml' ? readBiocXml(content) : readBiocJson(content));
    if (documents.length === 0) throw new FormatError('bioc', 'the collection holds no document');
    return documents;
  } catch (err) {
    if (err instanceof FormatError && !err.message.includes(file)) throw new FormatError(err.format, `${file}: ${err.message.replace(/^[a-z-]+: /, '')}`);
    throw err;
  }
}

/** A document that could not be read: the file, the document and the reason. */
export interface CorpusFailure {
  file: string;
  document: string;
  reason: string;
}

/**
 * The readable documents of a corpus file and, for each other one, why not: a batch that
 * loads the good documents says which were left out. A file that cannot be read at all
 * (not XML, not JSON, no document) throws a FormatError naming the file.
 */
export function readCorpusFileEach(content: string, file: string, format: CorpusFormat = corpusFormatOf(content)): { documents: CorpusDocument[]; failures: CorpusFailure[] } {
  let each;
  try {
    each = format === 'pubtator' ? readPubTatorEach(content, file) : biocCorpusEach(format === 'bioc-xml' ? readBiocXml(content) : readBiocJson(content));
  } catch (err) {
    if (err instanceof FormatError && !err.message.includes(file)) throw new FormatError(err.format, `${file}: ${err.message.replace(/^[a-z-]+: /, '')}`);
    throw err;
  }
  if (each.length === 0) throw new FormatError('bioc', `${file}: the collection holds no document`);
  const documents: CorpusDocument[] = [];
  const failures: CorpusFailure[] = [];
  for (const d of each) {
    if (d.document) documents.push(d.document);
    else failures.push({ file, document: d.id, reason: (d.error ?? '').replace(/^[a-z-]+: /, '') });
  }
  return { documents, failures };
}
