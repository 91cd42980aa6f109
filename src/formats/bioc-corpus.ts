// A corpus as the field ships it (BioC from PubTator, TeamTat, ezTag…; PubTator text files):
// documents with their text and the annotations that came with them, read into one shape
// that article intake and gold intake share. Nothing here knows a task: which annotations
// become whose gold is each family's (`scoring.corpusGold`).
//
// Choices (README.md in this folder, "Corpora"):
// - A document's text is its passages (or, for a passage split into sentences, its
//   sentences) placed at their offsets, the gaps filled with LF; offsets count code points.
//   The BC II.5 layout is not forced on it, so the annotations keep their offsets.
// - A passage's section name is its `section_type` infon, else its `type` infon (title,
//   abstract, a section name…). Every passage is a section, named or not, so an article
//   stored with its sections is written back with the same passages; its infons are kept
//   as written (all of them), as are the document's and the collection's (the header).
// - An annotation without a location is about the whole document (`start`/`end`
//   undefined). A continuous one (one location) must have its text at its span, else the
//   document is refused, naming the annotation. A discontinuous one (two or more
//   locations) keeps every location in `locations` and its text as written; `start`/`end`
//   are its covering span, which no consumer may take for the annotation without looking
//   at `locations` first (isDiscontinuous): each family says what it does with one.
// - Ids are kept as written; an annotation without one is named `#<n>` (UNNAMED_ID), n its
//   place among the document's annotations from 1, so people can find it.

import { CodePointText } from '../shared/code-points.ts';
import {
  allAnnotations,
  allRelations,
  documentText,
  type BiocAnnotation,
  type BiocCollection,
  type BiocDocument,
  type Infons,
} from './bioc-model.ts';
import { FormatError, type ArticleSection } from './common.ts';

/** One location of an annotation, in code points as written (`offset`, `offset + length`). */
export interface CorpusLocation {
  start: number;
  end: number;
}

export interface CorpusAnnotation {
  /** As written; `#<n>` when the file gave none (UNNAMED_ID). */
  id: string;
  /**
   * Code points; undefined for an annotation of the whole document. For a discontinuous
   * annotation the covering span (first start to last end): see `locations`.
   */
  start?: number;
  end?: number;
  /** Every location in file order, present only when there are two or more (a discontinuous annotation). */
  locations?: CorpusLocation[];
  /** The text at the span; for a discontinuous annotation its text as written (BC5CDR: "renal dysfunction"). */
  text: string;
  /** The `type` infon (BioC) or the type column (PubTator). */
  type?: string;
  /** Every infon (BioC), or `identifier` from PubTator's id column. */
  infons: Infons;
}

export interface CorpusRelation {
  id: string;
  type?: string;
  /** The annotation ids (BioC nodes) or concept ids (PubTator) related. */
  args: string[];
  /** The BioC nodes as written, with their roles (`args` are their refids); absent for PubTator. */
  nodes?: Array<{ refid: string; role: string }>;
  /**
   * Every infon (BioC: BC5CDR's `Chemical`/`Disease`, BioRED's `entity1`/`entity2`/`novel`
   * name the concepts here, without nodes), or PubTator's columns after the two ids
   * (`novelty`: BioRED's fifth column, `Novel` or `No`).
   */
  infons: Infons;
}

/** A passage of the document, named or not (see ArticleSection). */
export type CorpusSection = ArticleSection;

export interface CorpusDocument {
  id: string;
  text: string;
  sections: CorpusSection[];
  annotations: CorpusAnnotation[];
  relations: CorpusRelation[];
  /** The document's infons as written (BioC); absent for PubTator. */
  infons?: Infons;
}

/** A BioC collection's own fields as written (empty ones left out); absent for PubTator and bare documents. */
export interface CorpusHeader {
  source?: string;
  date?: string;
  key?: string;
  infons?: Infons;
}

/** The id given to an annotation written without one: `#<n>`, n its place among the document's annotations from 1. */
export const UNNAMED_ID = /^#\d+$/;

/** Whether the annotation has two or more locations: its start/end are then only its covering span. */
export const isDiscontinuous = (a: CorpusAnnotation): a is CorpusAnnotation & { locations: CorpusLocation[] } =>
  a.locations !== undefined && a.locations.length > 1;

/** A discontinuous annotation for people: `annotation 5 "renal dysfunction" (fragments [367, 372), [388, 399))`. */
export function describeFragments(a: CorpusAnnotation): string {
  const fragments = (a.locations ?? []).map((l) => `[${l.start}, ${l.end})`).join(', ');
  return `annotation ${a.id} ${JSON.stringify(a.text)} (fragments ${fragments})`;
}

/** The section name of a passage's infons: `section_type`, else `type`. */
const sectionName = (infons: Infons): string | undefined => infons.section_type ?? infons.type;

/** Checks that the annotation's text is the document's text at its span; throws naming both. */
export function checkAnnotationText(docId: string, a: CorpusAnnotation, text: CodePointText, format: string): void {
  if (a.start === undefined || a.end === undefined) return;
  if (a.end > text.length)
    throw new FormatError(
      format,
      `document ${docId}: annotation ${a.id} ends at ${a.end}, after the end of the text (${text.length} characters)`,
    );
  const found = text.slice(a.start, a.end);
  if (a.text !== '' && found !== a.text) {
    throw new FormatError(
      format,
      `document ${docId}: annotation ${a.id} says its text is ${JSON.stringify(a.text)} but the text at [${a.start}, ${a.end}) is ${JSON.stringify(found)}; the offsets do not fit the text`,
    );
  }
}

/** Every passage as a section: its name, its `type` when that differs, its infons as written when it has any. */
function corpusSections(doc: BiocDocument): CorpusSection[] {
  return doc.passages
    .map((p) => {
      const name = sectionName(p.infons);
      const length =
        p.text !== ''
          ? [...p.text].length
          : (p.sentences ?? []).reduce((end, s) => Math.max(end, s.offset + [...s.text].length), p.offset) - p.offset;
      const section: CorpusSection = { offset: p.offset, length };
      if (name !== undefined) section.name = name;
      if (p.infons.type !== undefined && p.infons.type !== name) section.type = p.infons.type;
      if (Object.keys(p.infons).length > 0) section.infons = { ...p.infons };
      return section;
    })
    .sort((x, y) => x.offset - y.offset);
}

/**
 * One BioC annotation as a corpus annotation, checked against the text: a continuous one's
 * text must be the text at its span (an empty one is filled from it); each location of a
 * discontinuous one must lie inside the text, its text is kept as written (its pieces
 * joined as the corpus chose: BC5CDR puts one space between them). Throws a FormatError.
 */
function corpusAnnotation(docId: string, a: BiocAnnotation, place: number, text: CodePointText): CorpusAnnotation {
  const id = a.id === '' ? `#${place}` : a.id;
  const annotation: CorpusAnnotation = { id, text: a.text, type: a.infons.type, infons: a.infons };
  if (a.locations.length === 0) return annotation;
  const locations = a.locations.map((l): CorpusLocation => ({ start: l.offset, end: l.offset + l.length }));
  annotation.start = Math.min(...locations.map((l) => l.start));
  annotation.end = Math.max(...locations.map((l) => l.end));
  if (locations.length === 1) {
    checkAnnotationText(docId, annotation, text, 'bioc');
    return { ...annotation, text: text.slice(annotation.start, annotation.end) };
  }
  for (const l of locations) checkAnnotationText(docId, { id, ...l, text: '', infons: {} }, text, 'bioc');
  return { ...annotation, locations };
}

/** What a reader does with an annotation that does not fit its text: refuse its document (the default), or leave it out and say so. */
export type BadAnnotations = 'refuse' | 'skip';

export interface CorpusReadOptions {
  badAnnotations?: BadAnnotations;
}

/** An annotation left out of its document (`badAnnotations: 'skip'`): the document, its id as the model names it, why. */
export interface AnnotationLeftOut {
  document: string;
  annotation: string;
  reason: string;
}

/** One document as read: the document, or why it cannot be read; the annotations left out of it. */
export interface CorpusDocumentRead {
  id: string;
  document?: CorpusDocument;
  error?: string;
  annotationsLeftOut?: AnnotationLeftOut[];
}

/** Why an annotation was left out, for people: the reader's reason, and what leaving it out means. */
export const leftOutReason = (err: FormatError): string =>
  `${err.message.replace(/^[a-z-]+: /, '')}; left out, the document's text was loaded without it (a gold standard upload refuses it: fix its offsets or text there)`;

function corpusDocument(doc: BiocDocument, options: CorpusReadOptions): { document: CorpusDocument; leftOut: AnnotationLeftOut[] } {
  const text = documentText(doc);
  const codePoints = new CodePointText(text);
  const annotations: CorpusAnnotation[] = [];
  const leftOut: AnnotationLeftOut[] = [];
  allAnnotations(doc).forEach((a, i) => {
    try {
      annotations.push(corpusAnnotation(doc.id, a, i + 1, codePoints));
    } catch (err) {
      if (options.badAnnotations !== 'skip' || !(err instanceof FormatError)) throw err;
      leftOut.push({ document: doc.id, annotation: a.id === '' ? `#${i + 1}` : a.id, reason: leftOutReason(err) });
    }
  });
  const relations = allRelations(doc).map((r): CorpusRelation => ({
    id: r.id,
    type: r.infons.type ?? r.infons.relation,
    args: r.nodes.map((n) => n.refid),
    nodes: r.nodes.map((n) => ({ refid: n.refid, role: n.role })),
    infons: r.infons,
  }));
  return { document: { id: doc.id, text, sections: corpusSections(doc), annotations, relations, infons: { ...doc.infons } }, leftOut };
}

/** The collection's header as written, or undefined when the file held bare documents. */
export function corpusHeader(collection: BiocCollection): CorpusHeader | undefined {
  if (collection.bare) return undefined;
  const header: CorpusHeader = {};
  if (collection.source !== '') header.source = collection.source;
  if (collection.date !== '') header.date = collection.date;
  if (collection.key !== '') header.key = collection.key;
  if (Object.keys(collection.infons).length > 0) header.infons = { ...collection.infons };
  return header;
}

/** The collection's documents as corpus documents; a FormatError names the document at fault. */
export function biocCorpus(collection: BiocCollection): CorpusDocument[] {
  return collection.documents.map((doc) => corpusDocument(doc, {}).document);
}

/** Each document of the collection, or why it cannot be read; with `badAnnotations: 'skip'`, the annotations left out. */
export function biocCorpusEach(collection: BiocCollection, options: CorpusReadOptions = {}): CorpusDocumentRead[] {
  return collection.documents.map((doc) => {
    try {
      const { document, leftOut } = corpusDocument(doc, options);
      return { id: doc.id, document, ...(leftOut.length > 0 ? { annotationsLeftOut: leftOut } : {}) };
    } catch (err) {
      if (err instanceof FormatError) return { id: doc.id, error: err.message };
      throw err;
    }
  });
}
