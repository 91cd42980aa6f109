// TX answers in the formats that hold document-level annotations:
// - BioC: one annotation per taxon without a location (it is about the whole document),
//   in the first passage; infons `type: Species`, `identifier` (the taxid, as PubTator
//   writes species), `rank`, `confidence`.
// - PubAnnotation: one denotation per taxon spanning the whole text (PubAnnotation has no
//   annotation without a span), obj `NCBITaxon:<taxid>`; rank and confidence as attributes.
// - PubTator: one annotation line per taxon, in rank order, spanning the whole text (as
//   for PubAnnotation: the format has no line without offsets), type `Species` and the
//   taxid in the id column, as PubTator writes species; the title and abstract lines are
//   written as for MENTION (the article's title section when it came from a corpus).

import { setOptional, type BiocTaskCodec, type Infons } from '../../formats/bioc-model.ts';
import { exportPubAnnotation } from '../../formats/pubannotation.ts';
import { writePubTator } from '../../formats/pubtator.ts';
import { codePointLength } from '../../shared/code-points.ts';
import type { ExportDoc, ExportResult } from '../family.ts';
import type { TaxonItem } from './types.ts';

export const taxonBioc: BiocTaskCodec<TaxonItem[]> = {
  task: 'TX',
  write(taxa, out) {
    for (const t of taxa) {
      const infons: Infons = { type: 'Species', identifier: String(t.taxid), rank: String(t.rank) };
      setOptional(infons, 'confidence', t.confidence);
      out.annotateDocument(infons);
    }
  },
  read(from) {
    return from.annotations.map((a, i) => {
      const item: TaxonItem = { taxid: Number(a.infons.identifier), rank: a.infons.rank === undefined ? i + 1 : Number(a.infons.rank) };
      if (a.infons.confidence !== undefined) item.confidence = Number(a.infons.confidence);
      return item;
    });
  },
};

/** One PubAnnotation document per article, named by its organiser id. */
export function taxonPubAnnotation(docs: ReadonlyArray<ExportDoc<TaxonItem[]>>, o: { sourcedb: string }): ExportResult {
  return {
    files: docs.map((d) => {
      const end = codePointLength(d.text);
      const whole = d.result.map((t) => ({
        start: 0,
        end,
        text: d.text,
        type: `NCBITaxon:${t.taxid}`,
        rank: t.rank,
        ...(t.confidence !== undefined ? { confidence: t.confidence } : {}),
      }));
      const doc = exportPubAnnotation(d.text, whole, { sourcedb: o.sourcedb, sourceid: d.id });
      return { name: `${d.id}.json`, content: `${JSON.stringify(doc, null, 2)}\n` };
    }),
  };
}

/** One PubTator file for the run, documents in the order given (load order). */
export function taxonPubTator(docs: ReadonlyArray<ExportDoc<TaxonItem[]>>, o: { run: string }): ExportResult {
  const documents = docs.map((d) => {
    const end = codePointLength(d.text);
    const taxa = [...d.result].sort((x, y) => x.rank - y.rank);
    return {
      id: d.id,
      text: d.text,
      sections: d.sections,
      annotations: taxa.map((t) => ({ start: 0, end, type: 'Species', identifier: String(t.taxid) })),
    };
  });
  return { files: [{ name: `${o.run}.TX.pubtator`, content: writePubTator(documents) }] };
}
