// ACT — article classification (BC II.5): is the article relevant (does it describe
// protein interactions)? Answer key `interaction` = [boolean relevant, double confidence].

import { XmlRpcDouble } from '../../xmlrpc/codec-encode.ts';
import { readClassificationTsv, writeClassificationTsv } from '../../formats/tsv.ts';
import { defineFamily } from '../family.ts';
import { voteAct, type ActConsensus } from './consensus.ts';
import { actScoring } from './scoring.ts';
import type { ActResult } from './types.ts';
import { validateAct } from './validate.ts';

const share = (n: number): string => n.toFixed(2);

export const act = defineFamily({
  name: 'ACT',
  answerKey: 'interaction',
  title: 'Article classification: is the article relevant?',
  validate: validateAct,
  counting: { count: 'one' },
  wire: {
    toWire: (result: ActResult) => [result.relevant, new XmlRpcDouble(result.confidence)],
    help: 'interaction [boolean, double]',
  },
  scoring: actScoring,
  consensus: {
    vote: voteAct,
    asResult: (vote: ActConsensus): ActResult => ({ relevant: vote.relevant, confidence: vote.confidence }),
  },
  exports: {},
  tsv: {
    write: (docs) => writeClassificationTsv(docs.map((d) => ({ id: d.id, relevant: d.result.relevant, confidence: d.result.confidence }))),
    read: (text, o) =>
      readClassificationTsv(text, o).map((l): { id: string; result: ActResult } => ({
        id: l.id,
        result: { relevant: l.relevant, confidence: l.confidence },
      })),
  },
  web: {
    answer: {
      kind: 'verdict',
      heading: 'Relevance (ACT)',
      verdict: (r: ActResult) => ({ positive: r.relevant, confidence: r.confidence }),
    },
    consensus: (c) => ({
      summary: `ACT: ${c.relevant ? 'relevant' : 'not relevant'} (share ${share(c.confidence)}; weight ${c.support.relevant} for, ${c.support.irrelevant} against)`,
    }),
    leaderboard: {
      columns: [
        ['accuracy', 'Accuracy'],
        ['sensitivity', 'Sensitivity'],
        ['specificity', 'Specificity'],
        ['mcc', 'MCC'],
        ['pAtFullR', 'P at full R'],
        ['aucIPR', 'AUC iP/R'],
      ],
      scatter: { x: 'aucIPR', y: 'mcc', yLabel: 'MCC', yDomain: [-1, 1] },
    },
    preselected: ['server', 'challenge'],
  },
});
