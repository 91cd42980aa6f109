// MENTION's id column in PubTator exports, as BC5CDR writes it (so its evaluation tool
// reads our runs): each id in its corpus form (a bare accession where its namespace is the
// type's default: `D003866` for a Disease, `MESH:D003866` stays whole for a Gene), a
// composite's ids joined by `|` (a variant's by `;`). A mention without ids gets `-1`, BC5CDR's "not
// normalised", when its type is one of BC5CDR's (Chemical, Disease), else `-`, PubTator's.

import { corpusForm, defaultNamespace } from '../../tasks/concept-ids.ts';
import type { MentionItem } from './types.ts';

const BC5CDR_TYPES = new Set(['Chemical', 'Disease']);

export function idColumn(m: Pick<MentionItem, 'ids' | 'type'>): string {
  if (m.ids === undefined || m.ids.length === 0) return m.type !== undefined && BC5CDR_TYPES.has(m.type) ? '-1' : '-';
  // A variant's tmVar form holds `|` itself: its composites are joined by `;` (splitIdColumn).
  const joiner = defaultNamespace(m.type, '') === 'HGVS' ? ';' : '|';
  return m.ids.map((id) => corpusForm(id, m.type)).join(joiner);
}
