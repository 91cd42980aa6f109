// IPT — interaction pairs (BC II.5): per article, a ranked list of undirected pairs of
// UniProt accessions that interact. Answer key `pairs`.

import { PAIR_LAYOUT, unorderedPairKey, pairOf } from '../../scoring/index.ts';
import { RANKED_LEADERBOARD, rankedConsensus, rankedScoring, rankedTsvFile, withConfidence, type RankedSpec } from '../common/ranked.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import type { PairItem } from './types.ts';
import { validateIpt } from './validate.ts';

const spec: RankedSpec<PairItem> = {
  task: 'IPT',
  layout: PAIR_LAYOUT,
  keyOf: (pair) => unorderedPairKey(pair.a, pair.b),
  itemOf: (key, rank, confidence) => {
    const [a, b] = pairOf(key);
    return withConfidence({ a, b, rank }, confidence);
  },
};

export const ipt = defineFamily({
  name: 'IPT',
  answerKey: 'pairs',
  title: 'Interaction pairs: ranked pairs of UniProt accessions per article',
  validate: validateIpt,
  counting: { count: 'items' },
  wire: {
    toWire: (pairs: PairItem[]) =>
      pairs.map((p) => ({ a: p.a, b: p.b, rank: p.rank, confidence: double(p.confidence), evidence: p.evidence })),
    help: 'pairs [{a, b, rank, confidence?, evidence?}]',
  },
  scoring: rankedScoring(spec, {
    options: ['all', 'cutoff', 'beta', 'ho', 'of'],
    flags: ['columns', 'all', 'cutoff', 'ho', 'of', 'beta'],
    goldForm: 'docid<TAB>accession A<TAB>accession B',
  }),
  consensus: rankedConsensus(spec),
  exports: {},
  tsv: rankedTsvFile(spec),
  web: {
    answer: {
      kind: 'list',
      heading: 'IPT: interacting pairs',
      items: (pairs) => pairs.map((p) => ({ label: `${p.a} – ${p.b}`, confidence: p.confidence })),
    },
    consensus: (vote) => ({
      heading: 'IPT',
      items: vote.items.map((p) => ({ label: `${p.a} – ${p.b}`, share: p.share, servers: p.servers.length })),
    }),
    leaderboard: RANKED_LEADERBOARD,
    preselected: ['server', 'challenge'],
  },
});
