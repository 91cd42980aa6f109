// TOPIC answers in BioC: one annotation per label without a location (a topic is about
// the whole document), in the first passage, as TX writes its species; infons `type:
// Topic`, `identifier` (the label) and `confidence` when the server sent one.

import { setOptional, type BiocTaskCodec, type Infons } from '../../formats/bioc-model.ts';
import type { TopicItem, TopicResult } from './types.ts';

export const topicBioc: BiocTaskCodec<TopicResult> = {
  task: 'TOPIC',
  write(topics, out) {
    for (const t of topics) {
      const infons: Infons = { type: 'Topic', identifier: t.label };
      setOptional(infons, 'confidence', t.confidence);
      out.annotateDocument(infons);
    }
  },
  read(from) {
    return from.annotations.map((a) => {
      const item: TopicItem = { label: a.infons.identifier ?? '' };
      if (a.infons.confidence !== undefined) item.confidence = Number(a.infons.confidence);
      return item;
    });
  },
};
