// TOPIC — multi-label document topics (LitCovid, BioCreative VII track 5): per article,
// the labels of a label set it is about. Answer key `topics` = [{label, confidence?}],
// checked against the challenge's label set (its `topicLabels`; empty: LitCovid's seven).
// Gold standards and runs in the track's forms (the official wide CSV, or
// `PMID,label;label`), scored as the track's evaluation script scores them: label-based
// micro, macro, weighted and per-sample averages, and its instance-based P/R/F1.

import { biocExports } from '../common/bioc.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import { topicConsensusResult, voteTopics } from './consensus.ts';
import { topicBioc } from './exports.ts';
import { topicScoring } from './scoring.ts';
import type { TopicResult } from './types.ts';
import { TOPIC_KEY, validateTopic } from './validate.ts';

const TASK = 'TOPIC';

/** The figures the track's script prints, as leaderboard columns: each average line, the instance-based lines, then each label's F1 (the gold standard's labels, in its order). */
const TOPIC_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['micro.p', 'micro P'],
  ['micro.r', 'micro R'],
  ['micro.f', 'micro F1'],
  ['macro.p', 'macro P'],
  ['macro.r', 'macro R'],
  ['macro.f', 'macro F1'],
  ['weighted.p', 'weighted P'],
  ['weighted.r', 'weighted R'],
  ['weighted.f', 'weighted F1'],
  ['samples.p', 'samples P'],
  ['samples.r', 'samples R'],
  ['samples.f', 'samples F1'],
  ['instance.p', 'instance P'],
  ['instance.r', 'instance R'],
  ['instance.f', 'instance F1'],
];
const PER_LABEL_F = /^perLabel\.(.+)\.f$/;

function topicColumns(figures: readonly string[]): ReadonlyArray<readonly [string, string]> {
  return [
    ...TOPIC_COLUMNS,
    ...figures.flatMap((key) => {
      const label = PER_LABEL_F.exec(key)?.[1];
      return label === undefined ? [] : [[key, `${label} F1`] as const];
    }),
  ];
}

export const topic = defineFamily({
  name: TASK,
  answerKey: TOPIC_KEY,
  title: 'Topics: the labels of a label set an article is about (LitCovid)',
  validate: validateTopic,
  counting: { count: 'items' },
  wire: {
    toWire: (topics: TopicResult) =>
      topics.map((t) => ({ label: t.label, ...(t.confidence !== undefined ? { confidence: double(t.confidence) } : {}) })),
    help: 'topics [{label, confidence?}]',
  },
  scoring: topicScoring,
  consensus: { vote: voteTopics, asResult: topicConsensusResult },
  exports: biocExports(TASK, topicBioc),
  bioc: topicBioc,
  web: {
    answer: {
      kind: 'labels',
      heading: 'Topics (TOPIC)',
      items: (topics: TopicResult) =>
        topics.map((t) => ({ label: t.label, ...(t.confidence !== undefined ? { confidence: t.confidence } : {}) })),
    },
    consensus: (vote) => ({
      heading: TASK,
      items: vote.items.map((t) => ({ label: t.label, share: t.share, servers: t.servers.length })),
    }),
    leaderboard: {
      columns: topicColumns,
      pr: { p: 'micro.p', r: 'micro.r' },
    },
  },
});
