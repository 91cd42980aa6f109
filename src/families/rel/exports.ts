// REL in the exchange formats. Each relation's two entities are written with it (the
// given entities a result names, `RelResult.entities`):
// - BioC: entities are annotations (infons `type`, `id`: the given id), relations document
//   relations (infons `type`, `id` R<n>, `confidence`, `rank`) with nodes `Arg1`, `Arg2`.
// - brat: the entities as T lines (renumbered T1… in text order, their given type), each
//   relation an `R<n><TAB>TYPE Arg1:Tn Arg2:Tm` line.
// - PubAnnotation: the entities as denotations (id: the given id), `relations`
//   [{id, subj, obj, pred: TYPE}].

import type { BiocTaskCodec, Infons } from '../../formats/bioc-model.ts';
import { setOptional } from '../../formats/bioc-model.ts';
import { exportBrat } from '../../formats/brat.ts';
import { exportPubAnnotation } from '../../formats/pubannotation.ts';
import type { FamilyExport } from '../family.ts';
import type { RelGivenEntity, RelItem, RelResult } from './types.ts';

const TASK = 'REL';

const byPosition = (a: RelGivenEntity, b: RelGivenEntity): number =>
  a.start - b.start || a.end - b.end || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const relBioc: BiocTaskCodec<RelResult> = {
  task: TASK,
  write(result, out) {
    const refOf = new Map<string, string>();
    for (const e of [...result.entities].sort(byPosition))
      refOf.set(e.id, out.annotate(e.start, e.end, e.text, { type: e.type, id: e.id }));
    result.relations.forEach((r, i) => {
      const infons: Infons = { type: r.type, id: `R${i + 1}` };
      setOptional(infons, 'confidence', r.confidence);
      setOptional(infons, 'rank', r.rank);
      out.relate(infons, [
        { refid: refOf.get(r.arg1) ?? r.arg1, role: 'Arg1' },
        { refid: refOf.get(r.arg2) ?? r.arg2, role: 'Arg2' },
      ]);
    });
  },
  read(from) {
    const idOf = new Map<string, string>();
    const entities = from.annotations.map((a) => {
      const e: RelGivenEntity = { id: a.infons.id ?? a.id, type: a.infons.type ?? '', ...from.span(a), text: a.text };
      idOf.set(a.id, e.id);
      return e;
    });
    const relations = from.relations.map((r) => {
      const node = (role: string): string => {
        const ref = r.nodes.find((n) => n.role === role)?.refid ?? '';
        return idOf.get(ref) ?? ref;
      };
      const item: RelItem = { type: r.infons.type ?? '', arg1: node('Arg1'), arg2: node('Arg2') };
      if (r.infons.confidence !== undefined) item.confidence = Number(r.infons.confidence);
      if (r.infons.rank !== undefined) item.rank = Number(r.infons.rank);
      return item;
    });
    return { relations, entities };
  },
};

export const relBrat: FamilyExport<RelResult> = (docs) => ({
  files: docs.flatMap((d) => {
    const entities = [...d.result.entities].sort(byPosition);
    const doc = exportBrat(
      d.text,
      entities.map((e) => ({ start: e.start, end: e.end, text: e.text, type: e.type })),
    );
    const tOf = new Map(entities.map((e, i) => [e.id, `T${i + 1}`]));
    const lines = d.result.relations.map((r, i) => `R${i + 1}\t${r.type} Arg1:${tOf.get(r.arg1)} Arg2:${tOf.get(r.arg2)}\n`);
    return [
      { name: `${d.id}.txt`, content: doc.txt },
      { name: `${d.id}.ann`, content: doc.ann + lines.join('') },
    ];
  }),
});

export const relPubAnnotation: FamilyExport<RelResult> = (docs, o) => ({
  files: docs.map((d) => {
    const entities = [...d.result.entities].sort(byPosition);
    const doc = exportPubAnnotation(
      d.text,
      entities.map((e) => ({ start: e.start, end: e.end, text: e.text, type: e.type })),
      { sourcedb: o.sourcedb, sourceid: d.id },
    );
    // Denotations keep the given ids, so that relations name the entities as the article did.
    const idOf = new Map(entities.map((e, i) => [`T${i + 1}`, e.id]));
    doc.denotations = (doc.denotations ?? []).map((den) => ({ ...den, id: idOf.get(den.id) ?? den.id }));
    doc.attributes = doc.attributes?.map((a) => ({ ...a, subj: idOf.get(a.subj) ?? a.subj }));
    doc.relations = d.result.relations.map((r, i) => ({ id: `R${i + 1}`, subj: r.arg1, obj: r.arg2, pred: r.type }));
    return { name: `${d.id}.json`, content: `${JSON.stringify(doc, null, 2)}\n` };
  }),
});
