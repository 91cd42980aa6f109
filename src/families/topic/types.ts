// TOPIC: multi-label document topics, as stored and served.

export interface TopicItem {
  label: string;
  confidence?: number;
}

/** The topics a server gives an article, in its order, each label once. */
export type TopicResult = TopicItem[];
