// MENTION items in BioC: one annotation per mention, in the passage holding its start;
// infons `type`, `confidence`, `rank`, `section` when the mention has them.

import { setOptional, type BiocTaskCodec, type Infons } from '../../formats/bioc-model.ts';
import type { MentionItem } from './types.ts';

export const mentionBioc: BiocTaskCodec<MentionItem[]> = {
  task: 'MENTION',
  write(mentions, out) {
    for (const m of mentions) {
      const infons: Infons = {};
      setOptional(infons, 'type', m.type);
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
      if (a.infons.confidence !== undefined) m.confidence = Number(a.infons.confidence);
      if (a.infons.section !== undefined) m.section = a.infons.section;
      if (a.infons.rank !== undefined) m.rank = Number(a.infons.rank);
      return m;
    });
  },
};
