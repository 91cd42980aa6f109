// The label set answers are checked against. LitCovid's seven topics (BioCreative VII
// track 5, in the column order of its evaluation script) are the set unless the setting
// `topicLabels` names a file of other labels, one per line.

import { readFileSync } from 'node:fs';

export const LITCOVID_TOPICS: readonly string[] = ['Treatment', 'Diagnosis', 'Prevention', 'Mechanism', 'Transmission', 'Epidemic Forecasting', 'Case Report'];

export interface TopicLabelSet {
  labels: readonly string[];
  /** Where the set came from, for the start-up log and /healthz. */
  source: string;
}

export const LITCOVID_SET: TopicLabelSet = { labels: LITCOVID_TOPICS, source: 'LitCovid (BioCreative VII track 5)' };

/** A label file: one label per line; blank lines and lines starting with # are skipped. */
export function loadTopicLabels(path: string): TopicLabelSet {
  const labels: string[] = [];
  readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const label = raw.trim();
      if (label === '' || label.startsWith('#')) return;
      if (labels.includes(label)) throw new Error(`${path}, line ${i + 1}: the label "${label}" is given twice; list each label once`);
      if (/[,;\t]/.test(label)) throw new Error(`${path}, line ${i + 1}: the label "${label}" holds a comma, semicolon or TAB, which the topic files use as separators; rename it`);
      labels.push(label);
    });
  if (labels.length === 0) throw new Error(`${path}: no labels; write one label per line`);
  return { labels, source: `${labels.length} labels from ${path}` };
}
