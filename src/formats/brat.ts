// brat standoff for MENTION: the article as `.txt` and its mentions as `.ann` T lines
// (`T1<TAB>Type start end<TAB>text`). Offsets count code points, as our API does (brat is
// Python and counts code points too). Import reads the T lines with the scoring library's
// parser, so a gold file and an imported run read alike.
//
// What brat's own parser (server/src/annotation.py) asks, and how the export meets it:
// - It reads the `.ann` line by line, splitting as Python's splitlines does (LF, CR, VT,
//   FF, U+001C–U+001E, NEL, U+2028, U+2029), and the text column of a T line must equal
//   the text of its fragments joined by one space. So a mention that crosses a line break
//   is written as fragments around it (`T4<TAB>Protein 73 83;84 94<TAB>first second`); one
//   that starts or ends with a line break gets a zero-width fragment there, so its own
//   boundaries survive. A TAB inside the text is written as it is: brat takes the text
//   column by length, and so does every reader that splits the line at its first two TABs.
// - brat 1.3 (Python 2) reads the `.txt` with universal newlines, counting CR LF as one
//   character; later versions read it as it is. The `.txt` is therefore written with every
//   CR LF and CR turned into LF, and the offsets count that text, which both read alike;
//   import maps them back onto the article's own text. A boundary between a CR and its LF
//   moves before the pair.
// Choices: an untyped mention is written with type `Mention` (brat needs a type) and comes
// back typed so; confidence, rank and section ride on an `AnnotatorNotes` line
// (`#1<TAB>AnnotatorNotes T1<TAB>confidence=0.9 rank=2`), which brat shows and keeps.
// Concept ids are brat's normalization lines after their T line, one per id
// (`N1<TAB>Reference T1 MESH:D003693<TAB>text`), read back as the mention's ids.

import { parseBratMentions, ScoringInputError } from '../scoring/index.ts';
import { CodePointText } from '../shared/code-points.ts';
import type { MentionItem } from '../families/mention/types.ts';
import { canonicalNamespace, formatConceptId } from '../tasks/concept-ids.ts';
import { FormatError, LINE_BREAK, extraFieldsOf, parseExtraFields, typeName, type ExportArticle } from './common.ts';

export interface BratDocument {
  txt: string;
  ann: string;
}

/** An article's text as brat reads it (CR LF and CR as LF), with offsets mapped both ways. */
export class BratText {
  /** The `.txt` content, as code points. */
  readonly cps: string[];
  /** Original offset → brat offset, and back; absent when the text has no CR (the same offsets). */
  private readonly toBratMap?: Int32Array;
  private readonly fromBratMap?: Int32Array;

  constructor(text: string) {
    const cps = Array.from(text);
    if (!text.includes('\r')) {
      this.cps = cps;
      return;
    }
    const to = new Int32Array(cps.length + 1);
    const from: number[] = [];
    const out: string[] = [];
    for (let i = 0; i < cps.length; i++) {
      to[i] = out.length;
      from.push(i);
      if (cps[i] === '\r' && cps[i + 1] === '\n') to[++i] = out.length;
      out.push(cps[i] === '\r' ? '\n' : cps[i]);
    }
    to[cps.length] = out.length;
    from.push(cps.length);
    this.cps = out;
    this.toBratMap = to;
    this.fromBratMap = Int32Array.from(from);
  }

  get txt(): string {
    return this.cps.join('');
  }

  toBrat(offset: number): number {
    return this.toBratMap ? this.toBratMap[offset] : offset;
  }

  fromBrat(offset: number): number {
    return this.fromBratMap ? this.fromBratMap[offset] : offset;
  }
}

/** The fragments of [start, end) between line breaks; zero-width ones keep a leading or trailing break's boundary. */
function fragments(cps: readonly string[], start: number, end: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let from = start;
  for (let i = start; i < end; i++) {
    if (!LINE_BREAK.test(cps[i])) continue;
    if (i > from) parts.push([from, i]);
    from = i + 1;
  }
  if (end > from) parts.push([from, end]);
  if (parts.length === 0 || parts[0][0] !== start) parts.unshift([start, start]);
  if (parts[parts.length - 1][1] !== end) parts.push([end, end]);
  return parts;
}

/**
 * brat's normalization line: `N1<TAB>Reference T1 MESH:D003693<TAB>text` (RID the
 * namespace, EID the accession, as brat's parser splits them at the first colon).
 */
function normalizationLine(n: number, target: string, conceptId: string, text: string): string {
  const colon = conceptId.indexOf(':');
  if (colon <= 0 || /\s/.test(conceptId))
    throw new FormatError(
      'brat',
      `concept id "${conceptId}" of ${target} cannot be written: brat needs NAMESPACE:accession without spaces`,
    );
  return `N${n}\tReference ${target} ${conceptId}\t${text.replace(/\t/g, ' ')}`;
}

/** The ids of each T line's normalization lines (`N…<TAB>Reference T1 NS:accession<TAB>…`), stored form, in file order. */
function normalizationsOf(lines: readonly string[]): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const line of lines) {
    const n = /^N\S*\t\S+ (\S+) ([^\s:]+):(\S+)(?:\t|$)/.exec(line);
    if (!n) continue;
    const id = formatConceptId({ namespace: canonicalNamespace(n[2]), accession: n[3] });
    const list = ids.get(n[1]) ?? ids.set(n[1], []).get(n[1])!;
    if (!list.includes(id)) list.push(id);
  }
  return ids;
}

export function exportBrat(text: string, mentions: readonly MentionItem[]): BratDocument {
  const view = new BratText(text);
  const lines: string[] = [];
  let notes = 0;
  let normalizations = 0;
  mentions.forEach((m, i) => {
    const id = `T${i + 1}`;
    const parts = fragments(view.cps, view.toBrat(m.start), view.toBrat(m.end));
    const offsets = parts.map(([s, e]) => `${s} ${e}`).join(';');
    const shown = parts.map(([s, e]) => view.cps.slice(s, e).join('')).join(' ');
    lines.push(`${id}\t${typeName(m, 'brat')} ${offsets}\t${shown}`);
    for (const conceptId of m.ids ?? []) lines.push(normalizationLine(++normalizations, id, conceptId, shown));
    const extra = extraFieldsOf(m);
    if (extra !== '') lines.push(`#${++notes}\tAnnotatorNotes ${id}\t${extra}`);
  });
  return { txt: view.txt, ann: lines.map((l) => `${l}\n`).join('') };
}

/** One server's mentions of one article; a server without a MENTION answer gets an empty `.ann`. */
export function exportBratAnswer(article: ExportArticle, server: string): BratDocument {
  const answer = article.answers.find((a) => a.server === server);
  return exportBrat(article.text, answer?.result.MENTION ?? []);
}

/**
 * The mentions of an `.ann` file on `text`: the article's own text (offsets are mapped
 * back from the brat view, as written by exportBrat) or the `.txt` as brat reads it.
 * A discontinuous mention counts from its first start to its last end.
 */
export function importBrat(text: string, ann: string, options: { file?: string } = {}): MentionItem[] {
  let spans;
  try {
    spans = parseBratMentions(ann, { file: options.file });
  } catch (error) {
    if (error instanceof ScoringInputError) throw new FormatError('brat', error.message);
    throw error;
  }
  // The parser returns T lines in file order; their ids come from the same lines.
  const lines = ann.split('\n').map((l) => l.replace(/\r$/, ''));
  const ids = lines.filter((l) => l.startsWith('T')).map((l) => l.split('\t', 1)[0]);
  const notes = new Map<string, string>();
  for (const line of lines) {
    const note = /^#\S*\tAnnotatorNotes (\S+)\t(.*)$/.exec(line);
    if (note) notes.set(note[1], note[2]);
  }
  const normalized = normalizationsOf(lines);
  const view = new BratText(text);
  const original = new CodePointText(text);
  return spans.map((span, i) => {
    if (span.end > view.cps.length)
      throw new FormatError(
        'brat',
        `${ids[i]}: span ${span.start}–${span.end} runs past the end of the text (${view.cps.length} code points)`,
      );
    const start = view.fromBrat(span.start);
    const end = view.fromBrat(span.end);
    const mention: MentionItem = { start, end, text: original.slice(start, end), type: span.type };
    const conceptIds = normalized.get(ids[i]);
    if (conceptIds) mention.ids = conceptIds;
    return Object.assign(mention, parseExtraFields(notes.get(ids[i]) ?? '', 'brat'));
  });
}
