// BioC (collection → document → passage → annotation/relation) as plain objects, and the
// mapping between it and our articles; bioc-xml.ts and bioc-json.ts only serialise it.
//
// Mapping (README.md in this folder):
// - Offsets and lengths count Unicode code points, like every offset of our API; the
//   collection says so in its `key` and in the infon `offset-unit: code-point`.
// - Each article is one document; its text is cut into passages at runs of two or more
//   LF (blank lines), so the gaps hold only LF and the document infon `length` restores
//   the text exactly. An article loaded from a corpus is cut at its sections instead
//   (the corpus's passages), each named by infons `type` and, when the two differed,
//   `section_type`; text outside every section is cut at blank lines as above.
// - What each task's result becomes is the task family's `BiocTaskCodec` (MENTION items
//   and COREF expressions are annotations in the passage holding their start, COREF links
//   document relations, document-level ids annotations without a location in the first
//   passage). Infons: `server`, `task`, then the item's own. Ids are `a<k>.<n>`: answer
//   k, item n, which restores the original order on import.
// - Document infons `answer.<k>.server` / `answer.<k>.tasks` list every answer that had a
//   task with a codec, so an empty answer survives. Tasks without one are not exported.

import { CodePointText } from '../shared/code-points.ts';
import { FormatError, type ArticleSection, type ExportAnswer, type ExportArticle } from './common.ts';

export type Infons = Record<string, string>;
export interface BiocLocation {
  offset: number;
  length: number;
}
export interface BiocAnnotation {
  id: string;
  infons: Infons;
  locations: BiocLocation[];
  text: string;
}
export interface BiocNode {
  refid: string;
  role: string;
}
export interface BiocRelation {
  id: string;
  infons: Infons;
  nodes: BiocNode[];
}
/** A sentence of a passage split into sentences: its offset counts from the document's start, as the passage's. */
export interface BiocSentence {
  offset: number;
  infons: Infons;
  text: string;
  annotations: BiocAnnotation[];
  relations: BiocRelation[];
}
export interface BiocPassage {
  offset: number;
  infons: Infons;
  text: string;
  annotations: BiocAnnotation[];
  relations: BiocRelation[];
  sentences?: BiocSentence[];
}
/** `annotations`: annotations of the document itself (BioC 2 allows them beside the passages). */
export interface BiocDocument {
  id: string;
  infons: Infons;
  passages: BiocPassage[];
  relations: BiocRelation[];
  annotations?: BiocAnnotation[];
}
export interface BiocCollection {
  source: string;
  date: string;
  key: string;
  infons: Infons;
  documents: BiocDocument[];
  /** Read from bare documents (no collection around them): source, date, key and infons were not written. */
  bare?: boolean;
}

export interface BiocOptions {
  source?: string;
  /** Default: today, YYYY-MM-DD. */
  date?: string;
}

export const BIOC_KEY = 'metaserver: location offsets and lengths count Unicode code points; annotation infons: server, task, type';

/** How a codec writes one answer's result: annotations and relations, ids given out in order. */
export interface BiocAnswerWriter {
  /** An annotation of [start, end) in the passage holding `start`; returns its id. */
  annotate(start: number, end: number, text: string, infons: Infons): string;
  /** An annotation of the whole document (no location), in the first passage; returns its id. */
  annotateDocument(infons: Infons): string;
  /** A document relation. */
  relate(infons: Infons, nodes: BiocNode[]): void;
}

/** What a codec reads one answer's result from: its task's annotations and relations, in id order. */
export interface BiocAnswerReader {
  documentId: string;
  annotations: BiocAnnotation[];
  relations: BiocRelation[];
  /** The annotation's span (its one location); a FormatError naming it when it has none or several. */
  span(a: BiocAnnotation): { start: number; end: number };
  text: CodePointText;
}

/** One task's results in BioC: `task` is the `task` infon of its annotations and relations. */
export interface BiocTaskCodec<R> {
  task: string;
  write(result: R, out: BiocAnswerWriter): void;
  read(from: BiocAnswerReader): R;
}

/** Codecs of any result type, as a caller holds several. */
export type AnyBiocCodec = BiocTaskCodec<unknown>;

/** Passages: the text cut at runs of ≥ 2 LF; offsets in code points. */
function passagesOf(text: string): BiocPassage[] {
  const passages: BiocPassage[] = [];
  const separator = /\n{2,}/g;
  let from = 0;
  let cp = 0;
  const push = (to: number) => {
    const piece = text.slice(from, to);
    if (piece !== '') passages.push({ offset: cp, infons: {}, text: piece, annotations: [], relations: [] });
    cp += [...piece].length;
  };
  for (let m = separator.exec(text); m; m = separator.exec(text)) {
    push(m.index);
    cp += m[0].length;
    from = m.index + m[0].length;
  }
  push(text.length);
  if (passages.length === 0) passages.push({ offset: 0, infons: {}, text: '', annotations: [], relations: [] });
  return passages;
}

/**
 * A section's infons: those its passage was read with, all of them as written (its name and
 * type were read from them); else `type` (the `type` infon as read, else the name) and
 * `section_type` when the name differs from it.
 */
function sectionInfons(s: ArticleSection): Infons {
  if (s.infons !== undefined) return { ...s.infons };
  const infons: Infons = {};
  const type = s.type ?? s.name;
  if (type !== undefined) infons.type = type;
  if (s.name !== undefined && s.name !== type) infons.section_type = s.name;
  return infons;
}

/** Passages at the article's sections; text between them that is not only LF is cut as passagesOf cuts, so nothing is lost. */
export function sectionPassages(text: string, sections: readonly ArticleSection[]): BiocPassage[] {
  const codePoints = new CodePointText(text);
  const passages: BiocPassage[] = [];
  let cp = 0;
  const gap = (to: number) => {
    if (to <= cp) return;
    for (const p of passagesOf(codePoints.slice(cp, to))) if (/[^\n]/.test(p.text)) passages.push({ ...p, offset: p.offset + cp });
  };
  for (const s of [...sections].sort((x, y) => x.offset - y.offset)) {
    const end = Math.min(s.offset + s.length, codePoints.length);
    gap(s.offset);
    passages.push({ offset: s.offset, infons: sectionInfons(s), text: codePoints.slice(s.offset, end), annotations: [], relations: [] });
    cp = Math.max(cp, end);
  }
  gap(codePoints.length);
  return passages.length > 0 ? passages : passagesOf(text);
}

export function passageAt(passages: BiocPassage[], offset: number): BiocPassage {
  let found = passages[0];
  for (const p of passages) if (p.offset <= offset) found = p;
  return found;
}

/** Sets an infon when the value is there (numbers as written by String). */
export function setOptional(infons: Infons, key: string, value: string | number | undefined): void {
  if (value !== undefined) infons[key] = String(value);
}

function exportAnswer(answer: ExportAnswer, k: number, codecs: readonly AnyBiocCodec[], doc: BiocDocument): void {
  doc.infons[`answer.${k}.server`] = answer.server;
  doc.infons[`answer.${k}.tasks`] = codecs.map((c) => c.task).join(',');
  let n = 0;
  for (const codec of codecs) {
    const tagged = (infons: Infons): Infons => ({ server: answer.server, task: codec.task, ...infons });
    const add = (locations: BiocLocation[], text: string, infons: Infons, passage: BiocPassage): string => {
      const annotation = { id: `a${k}.${++n}`, infons: tagged(infons), locations, text };
      passage.annotations.push(annotation);
      return annotation.id;
    };
    codec.write((answer.result as Record<string, unknown>)[codec.task], {
      annotate: (start, end, text, infons) => add([{ offset: start, length: end - start }], text, infons, passageAt(doc.passages, start)),
      annotateDocument: (infons) => add([], '', infons, doc.passages[0]),
      relate: (infons, nodes) => void doc.relations.push({ id: `a${k}.${++n}`, infons: tagged(infons), nodes }),
    });
  }
}

/** The articles as a collection; each answer's tasks are written by their codecs, in codec order. */
export function articlesToBioc(
  articles: readonly ExportArticle[],
  codecs: readonly AnyBiocCodec[],
  options: BiocOptions = {},
): BiocCollection {
  const documents = articles.map((article) => {
    const passages =
      article.sections && article.sections.length > 0 ? sectionPassages(article.text, article.sections) : passagesOf(article.text);
    const doc: BiocDocument = { id: article.id, infons: { length: String([...article.text].length) }, passages, relations: [] };
    let k = 0;
    for (const answer of article.answers) {
      const present = codecs.filter((c) => (answer.result as Record<string, unknown>)[c.task] !== undefined);
      if (present.length > 0) exportAnswer(answer, ++k, present, doc);
    }
    return doc;
  });
  return {
    source: options.source ?? 'metaserver',
    date: options.date ?? new Date().toISOString().slice(0, 10),
    key: BIOC_KEY,
    infons: { 'offset-unit': 'code-point' },
    documents,
  };
}

const sequence = (id: string): number => Number(/\.(\d+)$/.exec(id)?.[1] ?? Number.MAX_SAFE_INTEGER);

/** A passage's pieces of text at their offsets: its own text, or its sentences when it has none. */
function passagePieces(p: BiocPassage): Array<{ offset: number; text: string }> {
  if (p.text === '' && p.sentences && p.sentences.length > 0) return p.sentences.map((s) => ({ offset: s.offset, text: s.text }));
  return [{ offset: p.offset, text: p.text }];
}

/**
 * The document's text: each passage (or sentence) at its offset, the gaps between them
 * filled with LF, and up to the `length` infon when there is one. Offsets count code points.
 */
export function documentText(doc: BiocDocument): string {
  let text = '';
  let cp = 0;
  const pieces = doc.passages.flatMap(passagePieces).sort((x, y) => x.offset - y.offset);
  for (const piece of pieces) {
    if (piece.offset < cp)
      throw new FormatError(
        'bioc',
        `document ${doc.id}: the passage or sentence at offset ${piece.offset} overlaps the text before it (which ends at ${cp})`,
      );
    text += '\n'.repeat(piece.offset - cp) + piece.text;
    cp = piece.offset + [...piece.text].length;
  }
  const length = doc.infons.length === undefined ? cp : Number(doc.infons.length);
  return text + '\n'.repeat(Math.max(0, length - cp));
}

/** Every annotation of the document: of its passages, their sentences and the document itself. */
export function allAnnotations(doc: BiocDocument): BiocAnnotation[] {
  return [
    ...doc.passages.flatMap((p) => [...p.annotations, ...(p.sentences ?? []).flatMap((s) => s.annotations)]),
    ...(doc.annotations ?? []),
  ];
}

/** Every relation of the document: of its passages, their sentences and the document itself. */
export function allRelations(doc: BiocDocument): BiocRelation[] {
  return [...doc.passages.flatMap((p) => [...p.relations, ...(p.sentences ?? []).flatMap((s) => s.relations)]), ...doc.relations];
}

/**
 * The span of an answer's item: its one location. An item with none, or with two or more
 * (a discontinuous annotation: its first location alone, or the span covering them, would
 * not be what it marks), is refused, naming it; our export writes one location per item.
 */
function answerSpan(docId: string, a: BiocAnnotation): { start: number; end: number } {
  const [location, ...more] = a.locations;
  if (!location) throw new FormatError('bioc', `document ${docId}: annotation ${a.id} has no location; an answer's item is one span`);
  if (more.length > 0)
    throw new FormatError(
      'bioc',
      `document ${docId}: annotation ${a.id} has ${a.locations.length} locations (${a.locations.map((l) => `[${l.offset}, ${l.offset + l.length})`).join(', ')}); an answer's item is one span: write one annotation per fragment`,
    );
  return { start: location.offset, end: location.offset + location.length };
}

function importAnswer(
  doc: BiocDocument,
  k: number,
  server: string,
  tasks: string[],
  text: CodePointText,
  codecs: readonly AnyBiocCodec[],
): ExportAnswer {
  // The id prefix, not the server infon, tells answers apart: two answers may share a label.
  const mine = (id: string) => id.startsWith(`a${k}.`);
  const annotations = doc.passages
    .flatMap((p) => p.annotations)
    .filter((a) => mine(a.id))
    .sort((x, y) => sequence(x.id) - sequence(y.id));
  const relations = doc.relations.filter((r) => mine(r.id)).sort((x, y) => sequence(x.id) - sequence(y.id));
  const span = (a: BiocAnnotation) => answerSpan(doc.id, a);
  const result: Record<string, unknown> = {};
  for (const codec of codecs) {
    if (!tasks.includes(codec.task)) continue;
    const own = <T extends { infons: Infons }>(list: T[]) => list.filter((x) => x.infons.task === codec.task);
    result[codec.task] = codec.read({ documentId: doc.id, annotations: own(annotations), relations: own(relations), span, text });
  }
  return { server, result: result };
}

/** The articles of a collection; tasks without a codec are left out of the answers. */
export function biocToArticles(collection: BiocCollection, codecs: readonly AnyBiocCodec[]): ExportArticle[] {
  return collection.documents.map((doc) => {
    const text = documentText(doc);
    const codePoints = new CodePointText(text);
    const answers: ExportAnswer[] = [];
    for (let k = 1; doc.infons[`answer.${k}.server`] !== undefined; k++) {
      answers.push(
        importAnswer(doc, k, doc.infons[`answer.${k}.server`], (doc.infons[`answer.${k}.tasks`] ?? '').split(','), codePoints, codecs),
      );
    }
    return { id: doc.id, text, answers };
  });
}
