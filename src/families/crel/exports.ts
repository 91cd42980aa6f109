// CREL in the exchange formats, each relation with the mentions carrying its concepts:
// - PubTator: the mentions (ids in the corpus form: bare where the namespace is the type's
//   default, `|` between a composite's), then `PMID<TAB>Type<TAB>id1<TAB>id2[<TAB>Novel|No]`
//   with the ids in the corpus form; a CID relation writes the chemical first (BC5CDR's
//   order, which its eval_relation.sh compares).
// - BioC: the mentions as annotations (infons `type`, `identifier`), each relation a
//   document relation without nodes, in the corpus's infons: a CID one as BC5CDR's
//   (`relation: CID`, `Chemical`, `Disease`), the others as BioRED's (`type`, `entity1`,
//   `entity2`, `novel`), with `confidence` and `rank` when given.
// - PubAnnotation: the mentions as denotations (obj: the type), each relation between the
//   first mentions of its two concepts ({id, subj, obj, pred}).
// No brat form: brat relates two text-bound annotations, and a relation between concepts
// is about the document, not about two chosen mentions of them.

import type { BiocTaskCodec, Infons } from '../../formats/bioc-model.ts';
import { setOptional } from '../../formats/bioc-model.ts';
import { exportPubAnnotation } from '../../formats/pubannotation.ts';
import { writePubTator } from '../../formats/pubtator.ts';
import { annotationIds, corpusForm, formatConceptId, readConceptId } from '../../tasks/concept-ids.ts';
import type { FamilyExport } from '../family.ts';
import { NOVELTIES, type CrelItem, type CrelMention, type CrelResult, type Novelty } from './types.ts';

const TASK = 'CREL';
const CID = 'CID';

const byPosition = (a: CrelMention, b: CrelMention): number => a.start - b.start || a.end - b.end;

/** The entity type of the first mention carrying the id. */
const typeOf = (id: string, mentions: readonly CrelMention[]): string | undefined => mentions.find((m) => m.ids.includes(id))?.type;

/** The relation's concepts in the order the corpus writes them: a CID's chemical first. */
function written(r: CrelItem, mentions: readonly CrelMention[]): [string, string] {
  const chemicalSecond =
    r.type === CID && /^chemical/i.test(typeOf(r.concept2, mentions) ?? '') && !/^chemical/i.test(typeOf(r.concept1, mentions) ?? '');
  return chemicalSecond ? [r.concept2, r.concept1] : [r.concept1, r.concept2];
}

const bare = (id: string, mentions: readonly CrelMention[]): string => corpusForm(id, typeOf(id, mentions));

export const crelPubTator: FamilyExport<CrelResult> = (docs, o) => ({
  files: [
    {
      name: `${o.run}.${TASK}.pubtator`,
      content: writePubTator(
        docs.map((d) => ({
          id: d.id,
          text: d.text,
          sections: d.sections,
          annotations: d.result.mentions.map((m) => ({
            start: m.start,
            end: m.end,
            type: m.type ?? 'Mention',
            identifier: m.ids.map((id) => corpusForm(id, m.type)).join('|'),
          })),
          relations: d.result.relations.map((r) => ({
            type: r.type,
            args: [...written(r, d.result.mentions).map((id) => bare(id, d.result.mentions)), ...(r.novelty ? [r.novelty] : [])],
          })),
        })),
      ),
    },
  ],
});

function relationInfons(r: CrelItem, mentions: readonly CrelMention[]): Infons {
  const [c1, c2] = written(r, mentions).map((id) => bare(id, mentions));
  const infons: Infons = r.type === CID ? { relation: CID, Chemical: c1, Disease: c2 } : { type: r.type, entity1: c1, entity2: c2 };
  setOptional(infons, 'novel', r.novelty);
  setOptional(infons, 'confidence', r.confidence);
  setOptional(infons, 'rank', r.rank);
  return infons;
}

export const crelBioc: BiocTaskCodec<CrelResult> = {
  task: TASK,
  write(result, out) {
    for (const m of [...result.mentions].sort(byPosition)) {
      const infons: Infons = { identifier: m.ids.map((id) => corpusForm(id, m.type)).join('|') };
      setOptional(infons, 'type', m.type);
      out.annotate(m.start, m.end, m.text, infons);
    }
    for (const r of result.relations) out.relate(relationInfons(r, result.mentions), []);
  },
  read(from) {
    const mentions: CrelMention[] = from.annotations.map((a) => ({
      ...from.span(a),
      text: a.text,
      ...(a.infons.type !== undefined ? { type: a.infons.type } : {}),
      ids: annotationIds(a.infons, a.infons.type).ids,
    }));
    const stored = (written: string | undefined, type: string | undefined): string => {
      const hit = mentions.find((m) => m.ids.some((id) => corpusForm(id, m.type) === written));
      const fromMention = hit?.ids.find((id) => corpusForm(id, hit.type) === written);
      const id = readConceptId(written ?? '', type);
      return fromMention ?? (id ? formatConceptId(id) : (written ?? ''));
    };
    const relations = from.relations.map((r): CrelItem => {
      const cid = r.infons.relation === CID;
      const a = stored(cid ? r.infons.Chemical : r.infons.entity1, cid ? 'Chemical' : undefined);
      const b = stored(cid ? r.infons.Disease : r.infons.entity2, cid ? 'Disease' : undefined);
      const item: CrelItem = { type: cid ? CID : (r.infons.type ?? ''), concept1: a < b ? a : b, concept2: a < b ? b : a };
      if (NOVELTIES.includes(r.infons.novel as Novelty)) item.novelty = r.infons.novel as Novelty;
      if (r.infons.confidence !== undefined) item.confidence = Number(r.infons.confidence);
      if (r.infons.rank !== undefined) item.rank = Number(r.infons.rank);
      return item;
    });
    return { relations, mentions };
  },
};

export const crelPubAnnotation: FamilyExport<CrelResult> = (docs, o) => ({
  files: docs.map((d) => {
    const mentions = [...d.result.mentions].sort(byPosition);
    const doc = exportPubAnnotation(
      d.text,
      mentions.map((m) => ({ start: m.start, end: m.end, text: m.text, type: m.type ?? 'Mention', ids: m.ids })),
      { sourcedb: o.sourcedb, sourceid: d.id },
    );
    // Denotation T<n> is the n-th mention in text order (as exportPubAnnotation numbers them).
    const first = (id: string): string | undefined => {
      const i = mentions.findIndex((m) => m.ids.includes(id));
      return i < 0 ? undefined : `T${i + 1}`;
    };
    doc.relations = d.result.relations.flatMap((r, i) => {
      const [subj, obj] = written(r, mentions).map(first);
      return subj && obj ? [{ id: `R${i + 1}`, subj, obj, pred: r.type }] : [];
    });
    return { name: `${d.id}.json`, content: `${JSON.stringify(doc, null, 2)}\n` };
  }),
});
