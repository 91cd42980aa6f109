// A corpus written back as it was read (CorpusDocument, bioc-corpus.ts): the organiser's
// gold and article exports. BioC gets everything the reader keeps — the collection's source,
// date, key and infons, each document's infons, each passage at its offset with its infons,
// each annotation with its id, infons, every location (a discontinuous one's fragments) and
// its text as written, each relation with its infons and nodes — so a BioC corpus loaded and
// exported is the same corpus, document by document and annotation by annotation (passages
// split into sentences come back as whole passages: the text is the passage's).
//
// The formats that cannot hold everything say what they left out (`leftOut`), never widen:
// - PubTator has one span per line: a discontinuous annotation is left out, and so is one
//   without a location; BC5CDR's individual mentions of a composite (CompositeRole) are the
//   composite line's seventh column, their texts joined by "|", as its PubTator files write them. The id column is the
//   annotation's id infon as written (`identifier`, BC5CDR's `MESH`, `NCBI Gene`…). Relations are
//   written `doc<TAB>type<TAB>id1<TAB>id2` from PubTator's own concept ids, BC5CDR's
//   Chemical/Disease infons or BioRED's entity1/entity2 (and its novelty); others are left out.
// - PubAnnotation: a denotation per located annotation (a discontinuous one's `span` is the
//   list of its fragments, as converters such as bconv write it), `obj` its type; its ids are
//   `identifier` attributes, `NS:accession` as in the answers' PubAnnotation export;
//   relations with two nodes on annotations are `{subj, obj, pred}`.

import { annotationIds, idInfonOf } from '../tasks/concept-ids.ts';
import type { BiocAnnotation, BiocCollection, BiocDocument, BiocRelation, Infons } from './bioc-model.ts';
import { BIOC_KEY, passageAt, sectionPassages } from './bioc-model.ts';
import type { CorpusAnnotation, CorpusDocument, CorpusHeader, CorpusRelation } from './bioc-corpus.ts';
import type { PubAnnotationAttribute, PubAnnotationDocument } from './pubannotation.ts';
import { INDIVIDUAL_MENTIONS, writePubTator, type PubTatorDocument } from './pubtator.ts';
import { writeBiocXml } from './bioc-xml.ts';
import { writeBiocJson } from './bioc-json.ts';

/** What a format could not hold, per document, for the export's answer. */
export interface LeftOut {
  document: string;
  what: string;
}

const fragmentsOf = (a: CorpusAnnotation): Array<{ start: number; end: number }> =>
  a.locations ?? (a.start === undefined || a.end === undefined ? [] : [{ start: a.start, end: a.end }]);

function biocAnnotation(a: CorpusAnnotation): BiocAnnotation {
  // A PubTator annotation's type is its column, not an infon: BioC carries it as the `type` infon.
  const infons: Infons = a.type !== undefined && a.infons.type === undefined ? { type: a.type, ...a.infons } : { ...a.infons };
  return { id: a.id, infons, locations: fragmentsOf(a).map((l) => ({ offset: l.start, length: l.end - l.start })), text: a.text };
}

function biocRelation(r: CorpusRelation): BiocRelation {
  if (r.nodes) return { id: r.id, infons: { ...r.infons }, nodes: r.nodes.map((n) => ({ ...n })) };
  // PubTator's relations name concepts, not annotations: BioC carries them as BioRED does.
  const infons: Infons = { ...(r.type !== undefined ? { type: r.type } : {}), ...r.infons };
  r.args.forEach((arg, k) => (infons[`entity${k + 1}`] = arg));
  return { id: r.id, infons, nodes: [] };
}

function biocDocument(d: CorpusDocument): BiocDocument {
  // The passages as the answers' export writes them: each section with its infons as read.
  const passages = sectionPassages(d.text, d.sections);
  for (const a of d.annotations) passageAt(passages, fragmentsOf(a)[0]?.start ?? 0).annotations.push(biocAnnotation(a));
  return { id: d.id, infons: { ...(d.infons ?? {}) }, passages, relations: d.relations.map(biocRelation) };
}

/** The corpus as a BioC collection; without a header (a PubTator corpus, loaded articles), `source` and today's date. */
function corpusToBioc(documents: readonly CorpusDocument[], header: CorpusHeader | undefined, source: string): BiocCollection {
  return {
    source: header?.source ?? source,
    date: header?.date ?? new Date().toISOString().slice(0, 10),
    key: header?.key ?? BIOC_KEY,
    infons: { ...(header?.infons ?? (header ? {} : { 'offset-unit': 'code-point' })) },
    documents: documents.map(biocDocument),
  };
}

/** The id column of a PubTator line: the annotation's ids as written (BC5CDR's bare `D006470|D003556` stays so). */
const idColumn = (a: CorpusAnnotation): string | undefined => idInfonOf(a.infons)?.value;

/** A PubTator relation line's columns after the type, or undefined when the relation names no two concepts. */
function relationArgs(r: CorpusRelation): string[] | undefined {
  if (!r.nodes && r.args.length >= 2) return r.args;
  const i = r.infons;
  if (i.Chemical !== undefined && i.Disease !== undefined) return [i.Chemical, i.Disease];
  if (i.entity1 !== undefined && i.entity2 !== undefined) return [i.entity1, i.entity2, ...(i.novel !== undefined ? [i.novel] : [])];
  return undefined;
}

const COMPOSITE_ROLE = 'CompositeRole';

/**
 * BC5CDR's BioC writes a composite mention's individual mentions as annotations of their own
 * (CompositeRole IndividualMention); its PubTator files write them as the composite line's
 * seventh column, their texts joined by "|". The composite covering each, by annotation id.
 */
function individualMentions(d: CorpusDocument): { texts: Map<string, string[]>; folded: Set<CorpusAnnotation> } {
  const composites = d.annotations.filter((a) => a.infons[COMPOSITE_ROLE] === 'CompositeMention' && a.start !== undefined);
  const texts = new Map<string, string[]>();
  const folded = new Set<CorpusAnnotation>();
  for (const a of d.annotations) {
    if (a.infons[COMPOSITE_ROLE] !== 'IndividualMention') continue;
    const fragments = fragmentsOf(a);
    const composite = composites.find((c) => fragments.length > 0 && fragments.every((f) => f.start >= c.start! && f.end <= c.end!));
    if (!composite) continue;
    texts.set(composite.id, [...(texts.get(composite.id) ?? []), a.text]);
    folded.add(a);
  }
  return { texts, folded };
}

/** One annotation as a PubTator line, or why it cannot be one. */
function pubTatorAnnotation(a: CorpusAnnotation, individual: Map<string, string[]>): PubTatorDocument['annotations'][number] | string {
  if (a.locations && a.locations.length > 1)
    return `annotation ${a.id} (${a.locations.map((l) => `${l.start}-${l.end}`).join(',')}): discontinuous`;
  if (a.start === undefined || a.end === undefined) return `annotation ${a.id}: no location`;
  const seventh = a.infons[INDIVIDUAL_MENTIONS] ?? individual.get(a.id)?.join('|');
  return {
    start: a.start,
    end: a.end,
    type: a.type ?? a.infons.type ?? '',
    identifier: idColumn(a),
    ...(seventh !== undefined ? { extra: [seventh] } : {}),
  };
}

/** The corpus as PubTator documents, with what PubTator cannot hold. */
function corpusToPubTator(documents: readonly CorpusDocument[]): { documents: PubTatorDocument[]; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const out = documents.map((d): PubTatorDocument => {
    const individual = individualMentions(d);
    const annotations: PubTatorDocument['annotations'] = [];
    for (const a of d.annotations) {
      // Written in its composite's line (above), as BC5CDR's PubTator files have it.
      if (individual.folded.has(a)) continue;
      const line = pubTatorAnnotation(a, individual.texts);
      if (typeof line === 'string') leftOut.push({ document: d.id, what: line });
      else annotations.push(line);
    }
    const relations: NonNullable<PubTatorDocument['relations']> = [];
    for (const r of d.relations) {
      const args = relationArgs(r);
      const type = r.type ?? r.infons.relation ?? r.infons.type;
      if (args && type) relations.push({ type, args });
      else leftOut.push({ document: d.id, what: `relation ${r.id}: names no two concepts` });
    }
    return { id: d.id, text: d.text, annotations, relations, sections: d.sections };
  });
  return { documents: out, leftOut };
}

/** One PubAnnotation document per corpus document (sourcedb given, sourceid the document id). */
function corpusToPubAnnotation(
  documents: readonly CorpusDocument[],
  sourcedb: string,
): { documents: PubAnnotationDocument[]; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const out = documents.map((d): PubAnnotationDocument => {
    const denotations: PubAnnotationDocument['denotations'] = [];
    const attributes: PubAnnotationAttribute[] = [];
    const located = new Set<string>();
    for (const a of d.annotations) {
      const fragments = fragmentsOf(a).map((l) => ({ begin: l.start, end: l.end }));
      if (fragments.length === 0) {
        leftOut.push({ document: d.id, what: `annotation ${a.id}: no location` });
        continue;
      }
      located.add(a.id);
      // PubAnnotation's span is one object; a list of them is a discontinuous denotation.
      const span = (fragments.length === 1 ? fragments[0] : fragments) as { begin: number; end: number };
      denotations.push({ id: a.id, span, obj: a.type ?? a.infons.type ?? 'Mention' });
      // As the answers' PubAnnotation export writes them: one attribute per id, `NS:accession`.
      for (const id of annotationIds(a.infons, a.type).ids)
        attributes.push({ id: `A${attributes.length + 1}`, subj: a.id, pred: 'identifier', obj: id });
    }
    const relations: NonNullable<PubAnnotationDocument['relations']> = [];
    for (const r of d.relations) {
      const nodes = r.nodes?.map((n) => n.refid) ?? [];
      if (nodes.length === 2 && nodes.every((n) => located.has(n)))
        relations.push({ id: r.id, subj: nodes[0], obj: nodes[1], pred: r.type ?? r.infons.type ?? 'related' });
      else leftOut.push({ document: d.id, what: `relation ${r.id}: not two nodes on located annotations` });
    }
    return { text: d.text, sourcedb, sourceid: d.id, denotations, relations, ...(attributes.length > 0 ? { attributes } : {}) };
  });
  return { documents: out, leftOut };
}

/** The formats a corpus is written back in. */
export const CORPUS_WRITE_FORMATS = ['bioc-xml', 'bioc-json', 'pubtator', 'pubannotation'] as const;
export type CorpusWriteFormat = (typeof CORPUS_WRITE_FORMATS)[number];

/**
 * The corpus's files in the format: one file named `name` + the format's extension, or for
 * PubAnnotation one `<document id>.json` per document (as PubAnnotation takes uploads).
 */
export function corpusFiles(
  format: CorpusWriteFormat,
  documents: readonly CorpusDocument[],
  options: { header?: CorpusHeader; name: string; source: string },
): { files: Array<{ name: string; content: string }>; leftOut: LeftOut[] } {
  if (format === 'bioc-xml' || format === 'bioc-json') {
    const collection = corpusToBioc(documents, options.header, options.source);
    const content = format === 'bioc-xml' ? writeBiocXml(collection) : writeBiocJson(collection);
    return { files: [{ name: `${options.name}.${format === 'bioc-xml' ? 'bioc.xml' : 'bioc.json'}`, content }], leftOut: [] };
  }
  if (format === 'pubtator') {
    const written = corpusToPubTator(documents);
    return { files: [{ name: `${options.name}.pubtator`, content: writePubTator(written.documents) }], leftOut: written.leftOut };
  }
  const written = corpusToPubAnnotation(documents, options.source);
  return {
    files: written.documents.map((d) => ({ name: `${d.sourceid}.json`, content: `${JSON.stringify(d, null, 2)}\n` })),
    leftOut: written.leftOut,
  };
}
