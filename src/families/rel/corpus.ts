// REL gold (and runs) from a BioC corpus: every located annotation is an entity (its id,
// its `type` infon), every relation with two nodes a relation of its `type` infon, the
// first node Arg1 (DrugProt's BioC has the chemical first; the scorer orders the two
// anyway). They become the DrugProt TSV upload, the document id standing for the pmid.

import type { CorpusDocument } from '../../formats/bioc-corpus.ts';
import type { FamilyCorpus } from '../family.ts';

function entitiesTsv(documents: readonly CorpusDocument[]): string {
  return documents
    .flatMap((d) =>
      d.annotations.flatMap((a) =>
        a.start === undefined ? [] : [`${d.id}\t${a.id}\t${a.type ?? ''}\t${a.start}\t${a.end}\t${a.text.replace(/[\t\n]/g, ' ')}\n`],
      ),
    )
    .join('');
}

function relationsOf(documents: readonly CorpusDocument[]): { tsv: string; warnings: string[] } {
  const warnings: string[] = [];
  const lines = documents.flatMap((d) =>
    d.relations.flatMap((r) => {
      if (r.args.length !== 2 || !r.type) {
        warnings.push(
          `document ${d.id}: relation ${r.id} has ${r.type ? `${r.args.length} nodes` : 'no type'}; a REL relation has a type and two nodes, so it is left out`,
        );
        return [];
      }
      return [`${d.id}\t${r.type}\tArg1:${r.args[0]}\tArg2:${r.args[1]}\n`];
    }),
  );
  return { tsv: lines.join(''), warnings };
}

export const relCorpus: FamilyCorpus = {
  takes: 'every located annotation as an entity (its type infon) and every relation with a type and two nodes (Arg1 first)',
  gold(documents) {
    const { tsv, warnings } = relationsOf(documents);
    return { body: { entities: entitiesTsv(documents), relations: tsv }, warnings };
  },
  run(documents) {
    const { tsv, warnings } = relationsOf(documents);
    return { body: { relations: tsv }, warnings };
  },
};
