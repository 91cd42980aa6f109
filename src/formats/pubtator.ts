// The PubTator text format (BC5CDR, NCBI-disease, BioRED, NLM-Chem, the PubTator API):
//
//   PMID|t|title
//   PMID|a|abstract
//   PMID<TAB>start<TAB>end<TAB>text<TAB>type<TAB>id[<TAB>…]     an annotation
//   PMID<TAB>relationType<TAB>id1<TAB>id2[<TAB>…]               a relation
//
// documents separated by blank lines. Offsets count from the title's start, the abstract
// beginning one character after the title (PubTator's convention, checked on the BC5CDR
// and tmVar files in test/fixtures/pubtator). We read that one character as a LF: the
// document's text is `title + "\n" + abstract` (the title alone when there is no
// abstract), so every annotation keeps its offsets. The id column is kept as written
// (`-`, empty, or several ids joined by `|`, `;` or `,`): which ids a task can use is its
// family's choice. Columns after the sixth are kept as infons: BC5CDR's seventh
// ("individual mentions") as `individual_mentions`, tmVar's `RSID:…` under its key.
// Relations are kept on the document (no family scores them yet; gold intake says so).

import { CodePointText } from '../shared/code-points.ts';
import {
  checkAnnotationText,
  leftOutReason,
  type AnnotationLeftOut,
  type CorpusAnnotation,
  type CorpusDocument,
  type CorpusDocumentRead,
  type CorpusReadOptions,
} from './bioc-corpus.ts';
import { FormatError, LINE_BREAK, type ArticleSection } from './common.ts';

const FORMAT = 'pubtator';

interface Building {
  id: string;
  title?: string;
  abstract?: string;
  line: number;
  annotations: Array<CorpusAnnotation & { line: number }>;
  relations: CorpusDocument['relations'];
}

function integer(raw: string, what: string, where: string): number {
  if (!/^\d+$/.test(raw)) throw new FormatError(FORMAT, `${where}: the ${what} "${raw}" is not an offset (an integer ≥ 0)`);
  return Number(raw);
}

/** The document of the lines read; an annotation that does not fit the text refuses it, or with `skip` is left out and named. */
function finish(b: Building, where: string, options: CorpusReadOptions): { document: CorpusDocument; leftOut: AnnotationLeftOut[] } {
  if (b.title === undefined) throw new FormatError(FORMAT, `${where}, document ${b.id}: no "${b.id}|t|" title line`);
  const text = b.abstract !== undefined && b.abstract !== '' ? `${b.title}\n${b.abstract}` : b.title;
  const codePoints = new CodePointText(text);
  const titleLength = [...b.title].length;
  const sections = [{ offset: 0, length: titleLength, name: 'title' }];
  if (text !== b.title) sections.push({ offset: titleLength + 1, length: codePoints.length - titleLength - 1, name: 'abstract' });
  const annotations: CorpusAnnotation[] = [];
  const leftOut: AnnotationLeftOut[] = [];
  for (const { line, ...a } of b.annotations) {
    try {
      // PubTator has no line break inside a line: a writer puts a space for each line break
      // or TAB in a mention's text (writePubTator does, one for one), so the text column is
      // compared so, and the mention keeps the document's own text.
      const found = a.end! <= codePoints.length ? codePoints.slice(a.start!, a.end!) : undefined;
      if (found !== undefined && found !== a.text && oneLine(found) === a.text) a.text = found;
      checkAnnotationText(b.id, a, codePoints, FORMAT);
      annotations.push(a);
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      const located = new FormatError(FORMAT, `${where} line ${line}: ${err.message.replace(/^pubtator: /, '')}`);
      if (options.badAnnotations !== 'skip') throw located;
      leftOut.push({ document: b.id, annotation: a.id, reason: leftOutReason(located) });
    }
  }
  return { document: { id: b.id, text, sections, annotations, relations: b.relations }, leftOut };
}

/** A document's lines as read: its id, and each line with its number in the file. */
interface Block {
  id: string;
  lines: Array<{ n: number; text: string }>;
}

/** Cuts the file into documents: a blank line or a new title line ends one. */
function blocks(content: string, file: string): Block[] {
  const found: Block[] = [];
  let current: Block | undefined;
  content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const text = raw.replace(/\r$/, '');
      if (text.trim() === '') {
        current = undefined;
        return;
      }
      const title = /^([^|\t]+)\|t\|/.exec(text);
      if (title || !current) {
        if (!title) throw new FormatError(FORMAT, `${file} line ${i + 1}: a line before any "PMID|t|title" line`);
        current = { id: title[1], lines: [] };
        found.push(current);
      }
      current.lines.push({ n: i + 1, text });
    });
  if (found.length === 0) throw new FormatError(FORMAT, `${file} holds no document (no "PMID|t|title" line)`);
  return found;
}

/** tmVar's `RSID:2234671` after the id column: `KEY:value`. */
const KEYED_COLUMN = /^([A-Za-z][\w#]*):(\S.*)$/;

/**
 * The columns after the id column as infons: tmVar's `KEY:value` columns under their key
 * (`RSID`), else the seventh as `individual_mentions` (BC5CDR: the parts of a composite
 * mention, `renal dysfunction|hepatic dysfunction`), so an export can write them back.
 */
function extraColumns(columns: readonly string[]): Record<string, string> {
  const infons: Record<string, string> = {};
  columns.forEach((column, i) => {
    const keyed = KEYED_COLUMN.exec(column);
    if (keyed) infons[keyed[1]] = keyed[2];
    else if (i === 0 && column.trim() !== '') infons[INDIVIDUAL_MENTIONS] = column;
  });
  return infons;
}

/** The infon holding BC5CDR's seventh column (the individual mentions of a composite). */
export const INDIVIDUAL_MENTIONS = 'individual_mentions';

function readBlock(block: Block, file: string, options: CorpusReadOptions): ReturnType<typeof finish> {
  const b: Building = { id: block.id, line: block.lines[0].n, annotations: [], relations: [] };
  for (const { n, text: line } of block.lines) {
    const where = `${file} line ${n}`;
    const header = /^([^|\t]+)\|([ta])\|(.*)$/.exec(line);
    if (header) {
      const [, id, kind, value] = header as unknown as [string, string, 't' | 'a', string];
      if (id !== b.id) throw new FormatError(FORMAT, `${where}: the line is about document ${id} but stands in document ${b.id}`);
      if (kind === 't') b.title = value;
      else if (b.abstract !== undefined) throw new FormatError(FORMAT, `${where}: a second abstract line for document ${id}`);
      else b.abstract = value;
      continue;
    }
    const columns = line.split('\t');
    if (columns[0] !== b.id)
      throw new FormatError(FORMAT, `${where}: the line is about document ${columns[0]} but stands in document ${b.id}`);
    if (columns.length >= 5 && /^\d+$/.test(columns[1])) {
      const [, start, end, text, type, ids] = columns as [string, string, string, string, string, string | undefined];
      const s = integer(start, 'start', where);
      const e = integer(end, 'end', where);
      if (e < s) throw new FormatError(FORMAT, `${where}: the end ${e} is before the start ${s}`);
      const infons: Record<string, string> = { type };
      if (ids !== undefined && ids !== '' && ids !== '-') infons.identifier = ids;
      Object.assign(infons, extraColumns(columns.slice(6)));
      b.annotations.push({ id: `L${n}`, start: s, end: e, text, type, infons, line: n });
    } else if (columns.length >= 4) {
      // BioRED writes the relation's novelty (`Novel`, `No`) in a fifth column.
      const infons: Record<string, string> = columns[4] !== undefined && columns[4] !== '' ? { novelty: columns[4] } : {};
      b.relations.push({ id: `L${n}`, type: columns[1], args: columns.slice(2, 4), infons });
    } else {
      throw new FormatError(
        FORMAT,
        `${where}: neither "PMID|t|", "PMID|a|", an annotation (PMID, start, end, text, type, id) nor a relation (PMID, type, id1, id2)`,
      );
    }
  }
  return finish(b, file, options);
}

/**
 * Each document of a PubTator file, or why it cannot be read (with `badAnnotations: 'skip'`,
 * the annotations left out of it); a file that is no PubTator at all throws.
 */
export function readPubTatorEach(content: string, file = 'the PubTator file', options: CorpusReadOptions = {}): CorpusDocumentRead[] {
  const seen = new Set<string>();
  return blocks(content, file).map((block) => {
    try {
      if (seen.has(block.id)) throw new FormatError(FORMAT, `${file} line ${block.lines[0].n}: document ${block.id} appears twice`);
      seen.add(block.id);
      const { document, leftOut } = readBlock(block, file, options);
      return { id: block.id, document, ...(leftOut.length > 0 ? { annotationsLeftOut: leftOut } : {}) };
    } catch (err) {
      if (err instanceof FormatError) return { id: block.id, error: err.message };
      throw err;
    }
  });
}

/** The documents of a PubTator file, in file order; `file` names it in errors; the first bad document throws. */
export function readPubTator(content: string, file = 'the PubTator file'): CorpusDocument[] {
  return readPubTatorEach(content, file).map((d) => {
    if (d.error !== undefined) throw new FormatError(FORMAT, d.error.replace(/^pubtator: /, ''));
    return d.document!;
  });
}

/** One document to write: its text and mentions (code points), types, ids as the id column. */
export interface PubTatorDocument {
  id: string;
  text: string;
  /** `identifier`: the id column as written; `extra`: the columns after it (BC5CDR's individual mentions). */
  annotations: Array<{ start: number; end: number; type: string; identifier?: string; extra?: readonly string[] }>;
  relations?: Array<{ type: string; args: string[] }>;
  /** The article's sections when it came from a corpus: a title section at 0 is the title line. */
  sections?: readonly ArticleSection[];
}

/**
 * Where the title ends (a UTF-16 index): at the end of the section named title that
 * starts the text, when a line break or the end of the text follows it (the abstract line
 * starts one character later); else at the first LF.
 */
function titleEnd(d: PubTatorDocument, text: CodePointText): number {
  const title = d.sections?.find((s) => s.offset === 0 && /^title$/i.test(s.name ?? ''));
  if (title) {
    const end = text.slice(0, Math.min(title.length, text.length)).length;
    if (end === d.text.length || LINE_BREAK.test(d.text[end])) return end;
  }
  const newline = d.text.indexOf('\n');
  return newline < 0 ? d.text.length : newline;
}

const ALL_LINE_BREAKS = new RegExp(LINE_BREAK.source, 'g');
const oneLine = (s: string) => s.replace(ALL_LINE_BREAKS, ' ').replace(/\t/g, ' ');

/**
 * PubTator text: the title is the article's title section (see titleEnd), else the text
 * up to its first LF; the abstract is the rest after one character; a line
 * break or TAB inside either (or inside a mention's text) is written as a space, one
 * character for one, so every offset still counts from the title's start.
 */
export function writePubTator(documents: readonly PubTatorDocument[]): string {
  return documents
    .map((d) => {
      if (/[|\t\s]/.test(d.id))
        throw new FormatError(FORMAT, `document id "${d.id}" cannot be written: PubTator ids hold no "|", TAB or white space`);
      const text = new CodePointText(d.text);
      const end = titleEnd(d, text);
      const title = d.text.slice(0, end);
      const abstract = d.text.slice(end + 1);
      const lines = [`${d.id}|t|${oneLine(title)}`, `${d.id}|a|${oneLine(abstract)}`];
      const sorted = [...d.annotations].sort((x, y) => x.start - y.start || x.end - y.end);
      for (const a of sorted) {
        if (/[\t\n\r]/.test(a.type))
          throw new FormatError(FORMAT, `document ${d.id}: the type "${a.type}" cannot be written: it holds a TAB or line break`);
        const extra = (a.extra ?? []).map(oneLine);
        lines.push([d.id, a.start, a.end, oneLine(text.slice(a.start, a.end)), a.type, a.identifier ?? '', ...extra].join('\t'));
      }
      for (const r of d.relations ?? []) lines.push([d.id, r.type, ...r.args].join('\t'));
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}
