// REL gold (and runs) from a BioC corpus: every annotation with one location is an entity
// (its id, its `type` infon), every relation with two nodes a relation of its `type` infon,
// the first node Arg1 (DrugProt's BioC has the chemical first; the scorer orders the two
// anyway). They become the DrugProt TSV upload, the document id standing for the pmid.
// A discontinuous annotation (two or more locations; DrugProt has none) is left out, named
// in a warning: a DrugProt entity is one span, and the covering one would hold text it
// does not; a relation on it is then not scored (the scorer says so).

import { isDiscontinuous, type CorpusDocument } from '../../formats/bioc-corpus.ts';
import { discontinuousWarnings, type DiscontinuousLeftOut } from '../common/discontinuous.ts';
import type { FamilyCorpus } from '../family.ts';

function entitiesTsv(documents: readonly CorpusDocument[]): { tsv: string; warnings: string[] } {
  const discontinuous: DiscontinuousLeftOut[] = [];
  const tsv = documents
    .flatMap((d) =>
      d.annotations.flatMap((a) => {
        if (a.start === undefined) return [];
        if (isDiscontinuous(a)) {
          discontinuous.push({ document: d.id, annotation: a });
          return [];
        }
        return [`${d.id}\t${a.id}\t${a.type ?? ''}\t${a.start}\t${a.end}\t${a.text.replace(/[\t\n]/g, ' ')}\n`];
      }),
    )
    .join('');
  return { tsv, warnings: discontinuousWarnings(discontinuous, 'REL', 'an entity') };
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
  takes: 'every annotation with one location as an entity (its type infon) and every relation with a type and two nodes (Arg1 first)',
  gold(documents) {
    const entities = entitiesTsv(documents);
    const { tsv, warnings } = relationsOf(documents);
    return { body: { entities: entities.tsv, relations: tsv }, warnings: [...entities.warnings, ...warnings] };
  },
  run(documents) {
    const { tsv, warnings } = relationsOf(documents);
    return { body: { relations: tsv }, warnings };
  },
};
