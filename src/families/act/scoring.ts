// ACT scoring: BC II.5 classification files (document, classification, rank, confidence)
// read by the scoring library, online answers ranked by confidence, the ranking walk and
// confusion matrix of scoreActRun.

import { runName } from '../../scoring/score-files.ts';
import {
  classificationRunTsv,
  orderModeOf,
  parseActGold,
  parseActRun,
  scoreActRun,
  type ActEntry,
  type ActGold,
  type OrderMode,
} from '../../scoring/index.ts';
import { needText } from '../common/upload.ts';
import type { FamilyScoring } from '../family.ts';
import type { ActResult } from './types.ts';
import { withoutKeys } from '../common/documents.ts';

const TASK = 'ACT';

export interface ActRunData {
  entries: ActEntry[];
  mode: OrderMode;
}

export const actScoring: FamilyScoring<ActGold, ActRunData> = {
  mainFigure: 'mcc',
  options: [],
  upload: 'tsv',
  goldForm: 'docid<TAB>classification',
  parseGold(body) {
    const parsed = parseActGold(needText(TASK, body, 'gold standard'), { file: 'gold' });
    return { gold: parsed.value, documents: parsed.value.size, items: parsed.value.size, warnings: parsed.warnings };
  },
  goldDocuments: (gold) => gold.keys(),
  withoutDocuments: withoutKeys,
  parseRun(body, columns) {
    const parsed = parseActRun(needText(TASK, body, 'run'), { file: 'run', columns });
    return { run: { entries: parsed.value, mode: orderModeOf(columns) }, warnings: parsed.warnings };
  },
  /**
   * ACT answers carry no rank: the order is by confidence (ties by document id), which is
   * the BC II.5 online ranking (trues by confidence descending, then falses ascending).
   */
  onlineRun(answers) {
    const entries: ActEntry[] = answers.map((a, i) => {
      const act = a.value as ActResult;
      return { doc: a.doc, relevant: act.relevant, confidence: act.confidence, line: i + 1 };
    });
    return { entries, mode: 'confidence' };
  },
  score: (gold, data) => ({ metrics: { ...scoreActRun(gold, data.entries, data.mode) } }),
  exportTsv(data) {
    if (data.mode !== 'confidence') throw new Error('online ACT runs are ordered by confidence');
    return classificationRunTsv(data.entries);
  },
  cli: {
    flags: ['columns', 'all'],
    runs: 'run files',
    reads: ['bc2-tsv'],
    async score(runs, flags, files) {
      const goldFile = flags.gold!;
      const gold = parseActGold(await files.read(goldFile), { file: goldFile });
      files.warn(gold.warnings);
      const mode = orderModeOf(flags.columns);
      const scored = [];
      for (const file of runs) {
        const run = parseActRun(await files.read(file), { file, columns: flags.columns });
        files.warn(run.warnings);
        scored.push({ run: runName(file), metrics: { ...scoreActRun(gold.value, run.value, mode) } });
      }
      return scored;
    },
  },
};
