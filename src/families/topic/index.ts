// TOPIC — multi-label document topics (LitCovid, BioCreative VII track 5): per article,
// the labels of a label set it is about. Answer key `topics` = [{label, confidence?}],
// checked against the label set (LitCovid's seven unless the setting `topicLabels` names a
// file of others). Gold standards and runs in the track's forms (the official wide CSV, or
// `PMID,label;label`), scored as the track's evaluation script scores them: label-based
// micro, macro, weighted and per-sample averages, and its instance-based P/R/F1.

import { biocExports } from '../common/bioc.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import { topicConsensusResult, voteTopics } from './consensus.ts';
import { topicBioc } from './exports.ts';
import { LITCOVID_TOPICS, loadTopicLabels, type TopicLabelSet } from './labels.ts';
import { topicScoring } from './scoring.ts';
import type { TopicResult } from './types.ts';
import { TOPIC_KEY, validateTopic } from './validate.ts';
import { FAMILY_SETTINGS } from '../../tasks/names.ts';

const TASK = 'TOPIC';


/** The figures the track's script prints, as leaderboard columns: each average line, the instance-based lines, each LitCovid label's F1. */
const TOPIC_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['micro.p', 'micro P'], ['micro.r', 'micro R'], ['micro.f', 'micro F1'],
  ['macro.p', 'macro P'], ['macro.r', 'macro R'], ['macro.f', 'macro F1'],
  ['weighted.p', 'weighted P'], ['weighted.r', 'weighted R'], ['weighted.f', 'weighted F1'],
  ['samples.p', 'samples P'], ['samples.r', 'samples R'], ['samples.f', 'samples F1'],
  ['instance.p', 'instance P'], ['instance.r', 'instance R'], ['instance.f', 'instance F1'],
  ...LITCOVID_TOPICS.map((label) => [`perLabel.${label}.f`, `${label} F1`] as const),
];

export const topic = defineFamily({
  name: TASK,
  answerKey: TOPIC_KEY,
  title: 'Topics: the labels of a label set an article is about (LitCovid)',
  validate: validateTopic,
  counting: { count: 'items' },
  wire: {
    toWire: (topics: TopicResult) => topics.map((t) => ({ label: t.label, ...(t.confidence !== undefined ? { confidence: double(t.confidence) } : {}) })),
    help: 'topics [{label, confidence?}]',
  },
  scoring: topicScoring,
  consensus: { vote: voteTopics, asResult: topicConsensusResult },
  exports: biocExports(TASK, topicBioc),
  bioc: topicBioc,
  web: {
    answer: { kind: 'list', heading: 'TOPIC: topics', items: (topics: TopicResult) => topics.map((t) => ({ label: t.label, ...(t.confidence !== undefined ? { confidence: t.confidence } : {}) })) },
    consensus: (vote) => ({
      heading: TASK,
      items: vote.items.map((t) => ({ label: t.label, share: t.share, servers: t.servers.length })),
    }),
    leaderboard: {
      columns: TOPIC_COLUMNS,
      pr: { p: 'micro.p', r: 'micro.r' },
    },
  },
  settings: FAMILY_SETTINGS.TOPIC,
  lookup: {
    setting: 'topicLabels',
    load: (path: string): TopicLabelSet => loadTopicLabels(path),
    release: (set: TopicLabelSet) => set.source,
    without: "TOPIC labels are checked against LitCovid's seven topics",
  },
});
