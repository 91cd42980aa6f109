// A corpus file of any format the field ships, told apart by its content (a file name
// alone often lies: PubTator files come as `.txt`, BioC JSON as `.json` or `.bioc`):
// `<` starts BioC XML, `{` or `[` BioC JSON, anything else is read as PubTator text.
// Every error names the file; the readers name the document and the reason.

import { biocCorpus, type CorpusDocument } from './bioc-corpus.ts';
import { readBiocJson } from './bioc-json.ts';
import { readBiocXml } from './bioc-xml.ts';
import { FormatError } from './common.ts';
import { readPubTator } from './pubtator.ts';

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
