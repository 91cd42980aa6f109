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
//   stored with its sections is written back with the same passages.
// - An annotation spans from its first location's start to its last location's end (a
//   discontinuous one is read whole, as brat import does); one without a location is
//   about the whole document (`start`/`end` undefined). Its text must equal the text at
//   that span, else the document is refused, naming the annotation.

import { CodePointText } from '../shared/code-points.ts';
import { allAnnotations, allRelations, documentText, type BiocCollection, type BiocDocument, type Infons } from './bioc-model.ts';
import { FormatError, type ArticleSection } from './common.ts';

export interface CorpusAnnotation {
  id: string;
  /** Code points; undefined for an annotation of the whole document. */
  start?: number;
  end?: number;
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

function corpusDocument(doc: BiocDocument): CorpusDocument {
  const text = documentText(doc);
  const codePoints = new CodePointText(text);
  const sections = doc.passages
    .map((p) => {
      const name = sectionName(p.infons);
      const length =
        p.text !== ''
          ? [...p.text].length
          : (p.sentences ?? []).reduce((end, s) => Math.max(end, s.offset + [...s.text].length), p.offset) - p.offset;
      const section: CorpusSection = { offset: p.offset, length };
      if (name !== undefined) section.name = name;
      if (p.infons.type !== undefined && p.infons.type !== name) section.type = p.infons.type;
      return section;
    })
    .sort((x, y) => x.offset - y.offset);
  const annotations = allAnnotations(doc).map((a, i): CorpusAnnotation => {
    const id = a.id === '' ? `#${i + 1}` : a.id;
    const located = a.locations.length > 0;
    const start = located ? Math.min(...a.locations.map((l) => l.offset)) : undefined;
    const end = located ? Math.max(...a.locations.map((l) => l.offset + l.length)) : undefined;
    // A discontinuous annotation's text is its pieces' text: only a continuous one is checked.
    const annotation: CorpusAnnotation = {
      id,
      start,
      end,
      text: a.locations.length > 1 ? '' : a.text,
      type: a.infons.type,
      infons: a.infons,
    };
    checkAnnotationText(doc.id, annotation, codePoints, 'bioc');
    return { ...annotation, text: start === undefined ? a.text : codePoints.slice(start, end!) };
  });
  const relations = allRelations(doc).map((r) => ({
    id: r.id,
    type: r.infons.type ?? r.infons.relation,
    args: r.nodes.map((n) => n.refid),
    infons: r.infons,
  }));
  return { id: doc.id, text, sections, annotations, relations };
}

/** The collection's documents as corpus documents; a FormatError names the document at fault. */
export function biocCorpus(collection: BiocCollection): CorpusDocument[] {
  return collection.documents.map(corpusDocument);
}

/** Each document of the collection, or why it cannot be read. */
export function biocCorpusEach(collection: BiocCollection): Array<{ id: string; document?: CorpusDocument; error?: string }> {
  return collection.documents.map((doc) => {
    try {
      return { id: doc.id, document: corpusDocument(doc) };
    } catch (err) {
      if (err instanceof FormatError) return { id: doc.id, error: err.message };
      throw err;
    }
  });
}
