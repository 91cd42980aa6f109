// Gold standards of document-level ids (TX taxa, INT accessions) from a corpus's
// annotations: the ids an annotation carries (BioC infons, PubTator's id column), picked
// by each family, become `docid<TAB>id` lines, each id once per document. An id the
// family cannot use (not a number for a taxon…) is left out and counted in a warning.
import type { CorpusAnnotation, CorpusDocument } from '../../formats/bioc-corpus.ts';
import type { FamilyCorpus } from '../family.ts';

/** The ids of an infon value: several may be joined by `;`, `,` or `|` (PubTator, BC5CDR). */
export const idsOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[;,|]/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== '-');

export interface IdPicker {
  takes: string;
  /** The raw ids of the annotation this family reads (empty: not one of its annotations). */
  candidates(a: CorpusAnnotation): string[];
  /** The id as the family's files write it, or undefined when it is not one. */
  normalise(raw: string): string | undefined;
  /** What the family's ids are, for the warning. */
  what: string;
}

export function corpusIds(picker: IdPicker): FamilyCorpus {
  return {
    takes: picker.takes,
    gold(documents: readonly CorpusDocument[]) {
      const lines: string[] = [];
      const unusable = new Set<string>();
      for (const doc of documents) {
        const seen = new Set<string>();
        for (const a of doc.annotations) {
          for (const raw of picker.candidates(a)) {
            const id = picker.normalise(raw);
            if (id === undefined) unusable.add(raw);
            else if (!seen.has(id)) {
              seen.add(id);
              lines.push(`${doc.id}\t${id}`);
            }
          }
        }
      }
      const warnings =
        unusable.size > 0
          ? [`${unusable.size} id(s) are not ${picker.what} and were left out (${[...unusable].slice(0, 5).join(', ')})`]
          : [];
      return { body: lines.length > 0 ? `${lines.join('\n')}\n` : '', warnings };
    },
  };
}
