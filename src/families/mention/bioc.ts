// MENTION items in BioC: one annotation per mention, in the passage holding its start;
// infons `type`, `confidence`, `rank`, `section` when the mention has them, and its
// concept ids (idInfon).
//
// Ids: under the key they were read from (`idKey`), else `identifier`. Under a key that
// names a namespace (BC5CDR's `MESH`, GNormPlus's `NCBI Gene`) that namespace's ids are
// bare accessions joined by `|`, as BC5CDR writes a composite; under `identifier` each id
// is `NS:accession`, joined by `,` as NLM-Chem writes. `-` says the mention was sent with
// an empty list (not normalised); no infon, that it was sent without ids.
// Read back, a mention is one location: an annotation with several is refused by the
// reader's `span` (bioc-model.ts), naming it, rather than cut to its first fragment.

import { setOptional, type BiocTaskCodec, type Infons } from '../../formats/bioc-model.ts';
import { annotationIds, canonicalNamespace, NAMESPACES, readConceptId } from '../../tasks/concept-ids.ts';
import type { MentionItem } from './types.ts';

const IDENTIFIER = 'identifier';

/** The ids' infon: key and value as written (see above). */
export function idInfon(ids: readonly string[], idKey?: string): [string, string] {
  const key = idKey ?? IDENTIFIER;
  if (ids.length === 0) return [key, '-'];
  const namespace = canonicalNamespace(key);
  if (NAMESPACES[namespace] === undefined) return [key, ids.join(',')];
  const bare = ids.map((id) => (readConceptId(id)?.namespace === namespace ? readConceptId(id)!.accession : id));
  return [key, bare.join('|')];
}

export const mentionBioc: BiocTaskCodec<MentionItem[]> = {
  task: 'MENTION',
  write(mentions, out) {
    for (const m of mentions) {
      const infons: Infons = {};
      setOptional(infons, 'type', m.type);
      if (m.ids !== undefined) {
        const [key, value] = idInfon(m.ids, m.idKey);
        infons[key] = value;
      }
      setOptional(infons, 'confidence', m.confidence);
      setOptional(infons, 'rank', m.rank);
      setOptional(infons, 'section', m.section);
      out.annotate(m.start, m.end, m.text, infons);
    }
  },
  read(from) {
    return from.annotations.map((a) => {
      const m: MentionItem = { ...from.span(a), text: a.text };
      if (a.infons.type !== undefined) m.type = a.infons.type;
      const read = annotationIds(a.infons, a.infons.type);
      if (read.key !== undefined) {
        m.ids = read.ids;
        if (read.key !== IDENTIFIER) m.idKey = read.key;
      }
      if (a.infons.confidence !== undefined) m.confidence = Number(a.infons.confidence);
      if (a.infons.section !== undefined) m.section = a.infons.section;
      if (a.infons.rank !== undefined) m.rank = Number(a.infons.rank);
      return m;
    });
  },
};
