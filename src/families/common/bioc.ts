// BioC exports of one task's answers: one collection file per run, written by the
// family's codec alone (XML valid against the BioC DTD, or BioC JSON).

import { exportBiocJson } from '../../formats/bioc-json.ts';
import { exportBiocXml } from '../../formats/bioc-xml.ts';
import type { AnyBiocCodec, BiocTaskCodec } from '../../formats/bioc-model.ts';
import type { ExportArticle } from '../../formats/common.ts';
import type { ExportDoc, FamilyExport } from '../family.ts';

export function biocExports<R>(task: string, codec: BiocTaskCodec<R>): { 'bioc-xml': FamilyExport<R>; 'bioc-json': FamilyExport<R> } {
  const codecs = [codec as AnyBiocCodec];
  const articles = (docs: ReadonlyArray<ExportDoc<R>>, run: string): ExportArticle[] =>
    docs.map((d) => ({ id: d.id, text: d.text, sections: d.sections, answers: [{ server: run, result: { [task]: d.result } }] }));
  return {
    'bioc-xml': (docs, o) => ({
      files: [{ name: `${o.run}.${task}.bioc.xml`, content: exportBiocXml(articles(docs, o.run), codecs, { source: 'metaserver' }) }],
    }),
    'bioc-json': (docs, o) => ({
      files: [{ name: `${o.run}.${task}.bioc.json`, content: exportBiocJson(articles(docs, o.run), codecs, { source: 'metaserver' }) }],
    }),
  };
}
