// One server's answers for a task written as they are read: pages of documents come from
// the database in load order (AnswerRepository.exportPage), each page is written by the family's
// own writer (export-formats.ts), and the text goes out page by page, so an export of a
// million articles holds one page in memory. The streamed file is byte for byte the file
// the whole-body export writes (the tests compare them): the formats streamed are those
// whose documents are written independently of each other —
//   bioc-jsonl  one BioC JSON document per line (new: only streamed), no collection around;
//   bioc-json   the collection's head, then its documents, then its end, as one JSON text;
//   bioc-xml    the same in XML;
//   pubtator    the documents' blocks, a blank line between two.
// brat, pubannotation and a2 are a file per article and BIO counts what it leaves out over
// the whole file: those stay with the whole-body export.
import type { TaskName } from '../families/registry.ts';
import { exportFiles, type ExportFormat } from './export-formats.ts';

export const STREAM_FORMATS = ['bioc-jsonl', 'bioc-json', 'bioc-xml', 'pubtator'] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

/** The documents of one page, as the repository reads them. */
export type ExportRow = Parameters<typeof exportFiles>[3][number];

/** Pages of the server's answered documents, in load order (`seq`), `pageSize` at most each. */
export async function* exportPages(
  readPage: (after: string | null, limit: number) => Promise<Array<ExportRow & { seq: string }>>,
  pageSize: number,
): AsyncGenerator<ExportRow[]> {
  let after: string | null = null;
  for (;;) {
    const rows = await readPage(after, pageSize);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].seq;
  }
}

interface WriteContext {
  format: StreamFormat;
  task: TaskName;
  run: string;
  sourcedb: string;
}

/** The whole-body writer's file for these documents (the format bioc-jsonl is made from is bioc-json). */
function written(c: WriteContext, docs: ExportRow[]): { name: string; content: string } {
  const format: ExportFormat = c.format === 'bioc-jsonl' ? 'bioc-json' : c.format;
  const file = exportFiles(format, c.task, c.run, docs, { sourcedb: c.sourcedb }).files[0];
  return c.format === 'bioc-jsonl' ? { name: file.name.replace(/\.json$/, '.jsonl'), content: file.content } : file;
}

/** The file's name, as the whole-body export names it. */
export const streamFileName = (c: WriteContext): string => written(c, []).name;

type Splitter = (content: string) => { head: string; body: string; tail: string };

/** BioC JSON as JSON.stringify(…, null, 2) writes it: each document indented by four, a comma and a line feed between two. */
const biocJsonParts: Splitter = (content) => {
  const { documents, ...collection } = JSON.parse(content) as { documents: unknown[] };
  const empty = `${JSON.stringify({ ...collection, documents: [] }, null, 2)}\n`;
  const at = empty.indexOf('"documents": []') + '"documents": ['.length;
  const body = documents.map((d) => `    ${JSON.stringify(d, null, 2).replace(/\n/g, '\n    ')}`).join(',\n');
  return { head: `${empty.slice(0, at)}\n`, body, tail: `\n  ${empty.slice(at)}` };
};

/** BioC XML: the documents are the lines from the first <document> to the last </document>. */
const biocXmlParts: Splitter = (content) => {
  const from = content.indexOf('  <document>');
  const end = '</document>\n';
  const to = content.lastIndexOf(end) + end.length;
  return { head: content.slice(0, from), body: content.slice(from, to), tail: content.slice(to) };
};

const SEPARATED: Record<Exclude<StreamFormat, 'bioc-jsonl'>, { split: Splitter; between: string }> = {
  'bioc-json': { split: biocJsonParts, between: ',\n' },
  'bioc-xml': { split: biocXmlParts, between: '' },
  pubtator: { split: (content) => ({ head: '', body: content, tail: '' }), between: '\n' },
};

/**
 * The export's text, one chunk per page (with the head before the first and the tail after
 * the last). An export with no documents is the whole-body writer's empty file.
 */
export async function* exportChunks(c: WriteContext, pages: AsyncIterable<ExportRow[]>): AsyncGenerator<string> {
  if (c.format === 'bioc-jsonl') {
    for await (const docs of pages) {
      const { documents } = JSON.parse(written(c, docs).content) as { documents: unknown[] };
      yield documents.map((d) => `${JSON.stringify(d)}\n`).join('');
    }
    return;
  }
  const { split, between } = SEPARATED[c.format];
  let tail: string | null = null;
  for await (const docs of pages) {
    const parts = split(written(c, docs).content);
    yield tail === null ? parts.head + parts.body : between + parts.body;
    tail = parts.tail;
  }
  yield tail ?? written(c, []).content;
}
