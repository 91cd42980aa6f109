// The pieces every family of ranked document-level ids shares (INT accessions, IPT pairs,
// TX taxa): gold and runs as BC II.5 tab-separated files, online runs ordered by the ranks
// validation filled in, the BC II.5 ranked scorer (macro and micro P/R/F, AUC iP/R,
// cutoffs, F-beta), TSV exports, `metaserver score`, ranked voting, the trained ensemble
// and the leaderboard's columns. A family names its item's key and how a key becomes an
// item again; everything else follows.

import { positiveNumber, runName, type ScoreFlag } from '../../scoring/score-files.ts';
import { rankedVote, type RankedSupport, type TaskVote } from '../../scoring/vote-tally.ts';
import { readRankedTsv, writeRankedTsv } from '../../formats/tsv.ts';
import {
  orderModeOf,
  parseHomonymOrthologMap,
  parseOrganismMap,
  parseRankedGold,
  parseRankedRun,
  rankedRunTsv,
  scoreRankedRun,
  type GoldItems,
  type OrderMode,
  type RankedEntry,
  type RankedLayout,
  type RankedRun,
} from '../../scoring/index.ts';
import type { FamilyConsensus, FamilyScoring, FamilyWeb, ScoreOption, TsvFile } from '../family.ts';
import { needText } from './upload.ts';
import { withoutKeys } from './documents.ts';

/** An item of a ranked list as stored: validation fills every rank in. */
export interface RankedItem {
  rank: number;
  confidence?: number;
}

export interface RankedSpec<Item extends RankedItem> {
  task: string;
  /** The key columns of its tab-separated files. */
  layout: RankedLayout;
  /** The item's scoring key: an accession, a pair key (two accessions joined by TAB), a taxid. */
  keyOf(item: Item): string;
  /** The item a key stands for (voting, ensembles, imported files). */
  itemOf(key: string, rank: number, confidence?: number): Item;
}

/** A ranked run and what orders its lists (ranks for online runs; the uploaded columns otherwise). */
export interface RankedRunData {
  run: RankedRun;
  mode: OrderMode;
}

export type RankedVote<Item> = TaskVote<Item & RankedSupport>;

export function rankedScoring<Item extends RankedItem>(
  spec: RankedSpec<Item>,
  o: { options: readonly ScoreOption[]; flags: readonly ScoreFlag[]; goldForm: string },
): FamilyScoring<GoldItems, RankedRunData> {
  const { task, layout } = spec;
  return {
    mainFigure: 'macro.f',
    options: o.options,
    upload: 'tsv',
    goldForm: o.goldForm,
    parseGold(body) {
      const gold = parseRankedGold(needText(task, body, 'gold standard'), layout, { file: 'gold' });
      let items = 0;
      for (const keys of gold.values()) items += keys.length;
      return { gold, documents: gold.size, items, warnings: [] };
    },
    goldDocuments: (gold) => gold.keys(),
    withoutDocuments: withoutKeys,
    parseRun(body, columns) {
      const run = parseRankedRun(needText(task, body, 'run'), layout, { file: 'run', columns });
      return { run: { run, mode: orderModeOf(columns) }, warnings: [] };
    },
    onlineRun(answers) {
      // Online answers always carry ranks (validation fills missing ones), so ranks decide.
      const run: RankedRun = new Map();
      let line = 0;
      for (const a of answers) {
        const items = (a.value as Item[] | null) ?? [];
        const entries: RankedEntry[] = items.map((item) => ({
          key: spec.keyOf(item),
          rank: item.rank,
          confidence: item.confidence,
          line: ++line,
        }));
        // A document answered with an empty list has no results, as a run file without lines for it.
        if (entries.length > 0) run.set(a.doc, entries);
      }
      return { run, mode: 'rank' };
    },
    score(gold, data, s) {
      const { documents: _perDocument, ...metrics } = scoreRankedRun(gold, data.run, {
        task,
        mode: data.mode,
        all: s.all === true,
        cutoff: s.cutoff,
        beta: s.beta,
        orthologMap: s.orthologMap,
        organismMap: s.organismMap,
        organismMapFile: s.organismMapFile,
      });
      return { metrics };
    },
    exportTsv: (data) => rankedRunTsv(data.run),
    cli: {
      flags: o.flags,
      runs: 'run files',
      reads: ['bc2-tsv'],
      async score(runs, flags, files) {
        const goldFile = flags.gold!;
        const goldText = await files.read(goldFile);
        const mode = orderModeOf(flags.columns);
        const gold = parseRankedGold(goldText, layout, { file: goldFile });
        const orthologMap = flags.ho ? parseHomonymOrthologMap(await files.read(flags.ho), { file: flags.ho }) : undefined;
        const organismMap = flags.of ? parseOrganismMap(await files.read(flags.of), { file: flags.of }) : undefined;
        const options = {
          task,
          mode,
          all: flags.all === true,
          cutoff: positiveNumber(flags.cutoff, '--cutoff', true),
          orthologMap,
          organismMap,
          organismMapFile: flags.of,
          beta: positiveNumber(flags.beta, '--beta', false),
        };
        const scored = [];
        for (const file of runs) {
          const text = await files.read(file);
          // Scoring drops run documents outside the gold, so the parser need not build them
          // (it still checks their lines): most of a run's lines, at BC II.5 scale.
          const run = parseRankedRun(text, layout, { file, columns: flags.columns, documents: gold });
          const { documents: _perDocument, ...metrics } = scoreRankedRun(gold, run, options);
          scored.push({ run: runName(file), metrics });
        }
        return scored;
      },
    },
  };
}

export function rankedConsensus<Item extends RankedItem>(spec: RankedSpec<Item>): FamilyConsensus<Item[], GoldItems, RankedVote<Item>> {
  return {
    vote: (answers, threshold) =>
      rankedVote(
        answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result })),
        threshold,
        (item) => spec.keyOf(item),
        (first, rank, support) => ({ ...spec.itemOf(spec.keyOf(first), rank, support.share), ...support }),
      ),
    asResult: (vote) => vote.items.map((i) => spec.itemOf(spec.keyOf(i), i.rank, i.confidence)),
    ensemble: {
      items: (result) => result.map((i) => ({ key: spec.keyOf(i), rank: i.rank, confidence: i.confidence })),
      asResult: (items) => items.map((i) => spec.itemOf(i.key, i.rank, i.probability)),
      goldKeys: (gold) => gold,
    },
  };
}

/** Answers as BC II.5 result files (formats, import tooling). */
export function rankedTsvFile<Item extends RankedItem>(spec: RankedSpec<Item>): TsvFile<Item[]> {
  return {
    write: (docs) =>
      writeRankedTsv(
        docs.map((d) => ({ id: d.id, items: d.result.map((i) => ({ key: spec.keyOf(i), rank: i.rank, confidence: i.confidence })) })),
      ),
    read: (text, o) =>
      readRankedTsv(text, spec.layout, o).map((d) => ({ id: d.id, result: d.items.map((l) => spec.itemOf(l.key, l.rank, l.confidence)) })),
  };
}

/** The BC II.5 tables' columns and plots of ranked tasks (Tables 4-5, Figs 2-3). */
export const RANKED_LEADERBOARD: FamilyWeb<unknown, unknown>['leaderboard'] = {
  columns: [
    ['macro.p', 'P'],
    ['macro.r', 'R'],
    ['macro.f', 'F'],
    ['macro.aucIPR', 'AUC iP/R'],
    ['micro.p', 'micro P'],
    ['micro.r', 'micro R'],
    ['micro.f', 'micro F'],
    ['micro.aucIPR', 'micro AUC'],
  ],
  scatter: { x: 'macro.aucIPR', y: 'macro.f', yLabel: 'F-score', yDomain: [0, 1] },
  pr: { p: 'macro.p', r: 'macro.r' },
};

/** An item with its confidence only when there is one (stored answers never hold undefined). */
export function withConfidence<T extends object>(item: T, confidence: number | undefined): T & { confidence?: number } {
  return confidence === undefined ? item : { ...item, confidence };
}
