// CREL gold (and runs) from a corpus: each document's relations between concepts, as the
// field writes them —
// - PubTator: `PMID<TAB>CID<TAB>chemical<TAB>disease` (BC5CDR), `PMID<TAB>Type<TAB>id1<TAB>id2<TAB>Novel|No`
//   (BioRED): the ids are the relation's two arguments, the fifth column its novelty;
// - BioC: BC5CDR's infons `relation: CID`, `Chemical`, `Disease`; BioRED's `type`,
//   `entity1`, `entity2`, `novel`; or nodes whose refids are annotations (their ids).
// Bare ids take the namespace of the document's mentions carrying them (else the infon
// key's type: Chemical, Disease). They become relation lines in the stored form
// (files.ts), the upload every CREL gold standard and run is.

import type { CorpusDocument } from '../../formats/bioc-corpus.ts';
import type { ConceptRelation } from '../../scoring/index.ts';
import { annotationIds, formatConceptId, readConceptId, splitIdColumn } from '../../tasks/concept-ids.ts';
import type { FamilyCorpus } from '../family.ts';
import { writeRelationLines } from './files.ts';
import { NOVELTIES, type Novelty } from './types.ts';

/** Infon keys naming a relation's two concepts, with the entity type a bare id of each is. */
const CONCEPT_INFONS: ReadonlyArray<readonly [[string, string | undefined], [string, string | undefined]]> = [
  [
    ['Chemical', 'Chemical'],
    ['Disease', 'Disease'],
  ],
  [
    ['entity1', undefined],
    ['entity2', undefined],
  ],
];

/** A document's ids by what the corpus writes (bare accession or as written) → stored form, from its annotations. */
function documentIds(d: CorpusDocument): { byWritten: Map<string, string>; byAnnotation: Map<string, string[]> } {
  const byWritten = new Map<string, string>();
  const byAnnotation = new Map<string, string[]>();
  for (const a of d.annotations) {
    const { ids, key } = annotationIds(a.infons, a.type);
    byAnnotation.set(a.id, ids);
    const written = key === undefined ? [] : splitIdColumn(a.infons[key], a.type);
    written.forEach((w, i) => {
      if (ids[i] !== undefined) byWritten.set(w, ids[i]);
    });
    for (const id of ids) byWritten.set(id, id);
  }
  return { byWritten, byAnnotation };
}

function storedId(written: string | undefined, type: string | undefined, known: Map<string, string>): string | undefined {
  if (written === undefined || written.trim() === '') return undefined;
  const hit = known.get(written.trim());
  if (hit) return hit;
  const id = readConceptId(written, type);
  return id ? formatConceptId(id) : undefined;
}

/** The relation's two concepts as written: its infons, else its args (annotation refids or ids). */
function writtenConcepts(
  r: CorpusDocument['relations'][number],
  byAnnotation: Map<string, string[]>,
): Array<{ written?: string; type?: string }> | undefined {
  for (const [[k1, t1], [k2, t2]] of CONCEPT_INFONS)
    if (r.infons[k1] !== undefined || r.infons[k2] !== undefined)
      return [
        { written: r.infons[k1], type: t1 },
        { written: r.infons[k2], type: t2 },
      ];
  if (r.args.length !== 2) return undefined;
  return r.args.map((arg) => ({ written: byAnnotation.has(arg) ? byAnnotation.get(arg)![0] : arg }));
}

/** The documents' relations between concepts, and what was left out. */
export function corpusRelations(documents: readonly CorpusDocument[]): { relations: ConceptRelation[]; warnings: string[] } {
  const warnings: string[] = [];
  const relations = documents.flatMap((d) => {
    const { byWritten, byAnnotation } = documentIds(d);
    return d.relations.flatMap((r): ConceptRelation[] => {
      const type = r.type ?? r.infons.relation;
      const written = writtenConcepts(r, byAnnotation);
      const concepts = written?.map((w, i) =>
        storedId(w.written, w.type ?? (type === 'CID' ? ['Chemical', 'Disease'][i] : undefined), byWritten),
      );
      if (!type || !concepts || concepts.some((c) => c === undefined)) {
        warnings.push(
          `document ${d.id}: relation ${r.id} left out: ${!type ? 'it has no type' : !concepts ? 'it names no two concepts' : 'an id of it has no namespace and no mention carries it'}`,
        );
        return [];
      }
      const relation: ConceptRelation = { doc: d.id, type, concept1: concepts[0]!, concept2: concepts[1]! };
      const novelty = r.infons.novelty ?? r.infons.novel;
      if (novelty !== undefined && NOVELTIES.includes(novelty as Novelty)) relation.novelty = novelty;
      else if (novelty !== undefined && novelty !== '')
        warnings.push(`document ${d.id}: relation ${r.id}: novelty ${JSON.stringify(novelty)} is neither Novel nor No; read as absent`);
      return [relation];
    });
  });
  return { relations, warnings };
}

export const crelCorpus: FamilyCorpus = {
  takes:
    "every relation between two concepts: PubTator relation lines (BioRED's fifth column its novelty), BioC relations with BC5CDR's Chemical/Disease or BioRED's entity1/entity2/novel infons, or two nodes on annotations (their ids)",
  gold(documents) {
    const { relations, warnings } = corpusRelations(documents);
    // Documents without a relation are gold documents too: relations predicted there are false positives.
    const headers = documents.map((d) => `${d.id}|t|\n`).join('');
    return { body: headers + writeRelationLines(relations), warnings };
  },
  run(documents) {
    const { relations, warnings } = corpusRelations(documents);
    return { body: writeRelationLines(relations), warnings };
  },
};
