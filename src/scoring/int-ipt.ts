// BC II.5 scoring of ranked lists of document-level ids — INT (ranked accessions), IPT
// (ranked undirected pairs) and any family of ranked ids (TX taxa) — following
// bc-evaluate 2.3.1's pipeline, in this order:
//   drop run documents not in the gold → order each list → homonym-ortholog mapping →
//   organism filtering → drop documents left empty → choose evaluated documents (gold
//   documents with results; with `all`, every gold document) → cut each list at k →
//   per-document walk (macro) and rank-level walk (micro).
// IPT items are pair keys (sorted accessions), so pair equality is key equality.

import { aucFromCurve, f1, fBeta, mean, populationSd, safeRatio } from './metrics.ts';
import { filterByOrganism, mapHomonymOrthologs } from './postprocess.ts';
import { compareIds, orderRankedKeys } from './ranking.ts';
import type { GoldItems, HomonymOrthologMap, OrderMode, OrganismMap, RankedRun } from './types.ts';

export interface RankedScoreOptions {
  /**
   * The task of the run, informative only: the keys say what an item is (a pair key holds
   * a TAB), so the same scorer serves any ranked list of document-level ids.
   */
  task?: string;
  /** What orders each list; default 'rank'. */
  mode?: OrderMode;
  /** Also evaluate gold documents without results (as empty lists). */
  all?: boolean;
  /** Keep only the first k results of each document, after mapping and filtering. */
  cutoff?: number;
  orthologMap?: HomonymOrthologMap;
  organismMap?: OrganismMap;
  /** Named in the error about a gold accession missing from the organism map. */
  organismMapFile?: string;
  /** Also report the macro-averaged F-beta (the paper's user-centric β = 10 at k = 30). */
  beta?: number;
}

export interface DocumentScore {
  doc: string;
  tp: number;
  fp: number;
  fn: number;
  p: number;
  r: number;
  f: number;
  aucIPR: number;
  fBeta?: number;
}

export interface RankedRunScore {
  evaluatedDocs: number;
  tp: number;
  fp: number;
  fn: number;
  micro: { p: number; r: number; f: number; aucIPR: number };
  macro: { p: number; r: number; f: number; aucIPR: number; sdP: number; sdR: number; sdF: number; sdAucIPR: number };
  /** Macro-averaged F-beta, when options.beta is given. */
  fBeta?: number;
  /** Per evaluated document, in document-id order. */
  documents: DocumentScore[];
}

// Gold sets are built once per gold standard, not once per run (52 runs share one gold).
const goldSetCache = new WeakMap<GoldItems, Map<string, Set<string>>>();

function goldSetsOf(gold: GoldItems): Map<string, Set<string>> {
  let sets = goldSetCache.get(gold);
  if (!sets) {
    sets = new Map();
    for (const [doc, keys] of gold) sets.set(doc, new Set(keys));
    goldSetCache.set(gold, sets);
  }
  return sets;
}

/** Each evaluated document's final list (after mapping, filtering and cutoff), by id. */
export function prepareRankedLists(gold: GoldItems, run: RankedRun, options: RankedScoreOptions): Map<string, string[]> {
  const goldSets = goldSetsOf(gold);
  const mode = options.mode ?? 'rank';
  const lists = new Map<string, string[]>();
  for (const [doc, entries] of run) {
    const goldKeys = gold.get(doc);
    if (!goldKeys) continue;
    let ordered = orderRankedKeys(entries, mode);
    if (options.orthologMap) {
      ordered = mapHomonymOrthologs(ordered, goldKeys, goldSets.get(doc)!, options.orthologMap);
    }
    if (options.organismMap) {
      ordered = filterByOrganism(doc, ordered, goldKeys, options.organismMap, options.organismMapFile);
    }
    if (ordered.length > 0) lists.set(doc, ordered);
  }
  const evaluated = (options.all ? [...gold.keys()] : [...lists.keys()]).sort(compareIds);
  const cut = new Map<string, string[]>();
  for (const doc of evaluated) {
    const list = lists.get(doc) ?? [];
    cut.set(doc, options.cutoff !== undefined && list.length > options.cutoff ? list.slice(0, options.cutoff) : list);
  }
  return cut;
}

export function scoreRankedRun(gold: GoldItems, run: RankedRun, options: RankedScoreOptions): RankedRunScore {
  const goldSets = goldSetsOf(gold);
  const lists = prepareRankedLists(gold, run, options);
  const documents: DocumentScore[] = [];
  const hitsByDoc: Uint8Array[] = [];
  let goldTotal = 0;
  let longest = 0;
  for (const [doc, list] of lists) {
    const goldSet = goldSets.get(doc)!;
    const hits = new Uint8Array(list.length);
    const ps = new Array<number>(list.length);
    const rs = new Array<number>(list.length);
    let tp = 0;
    for (let i = 0; i < list.length; i++) {
      if (goldSet.has(list[i])) {
        hits[i] = 1;
        tp++;
      }
      ps[i] = tp / (i + 1);
      rs[i] = tp / goldSet.size;
    }
    const fp = list.length - tp;
    const p = safeRatio(tp, list.length);
    const r = safeRatio(tp, goldSet.size);
    const score: DocumentScore = { doc, tp, fp, fn: goldSet.size - tp, p, r, f: f1(p, r), aucIPR: aucFromCurve(ps, rs) };
    if (options.beta !== undefined) score.fBeta = fBeta(p, r, options.beta);
    documents.push(score);
    hitsByDoc.push(hits);
    goldTotal += goldSet.size;
    if (list.length > longest) longest = list.length;
  }

  // Micro: one counter over all documents, advanced one rank level at a time.
  const ps: number[] = [];
  const rs: number[] = [];
  let tp = 0;
  let seen = 0;
  for (let level = 0; level < longest; level++) {
    for (const hits of hitsByDoc) {
      if (level >= hits.length) continue;
      seen++;
      tp += hits[level];
    }
    ps.push(tp / seen);
    rs.push(safeRatio(tp, goldTotal));
  }
  const microP = safeRatio(tp, seen);
  const microR = safeRatio(tp, goldTotal);

  const column = (pick: (d: DocumentScore) => number) => documents.map(pick);
  const macroP = column((d) => d.p);
  const macroR = column((d) => d.r);
  const macroF = column((d) => d.f);
  const macroAuc = column((d) => d.aucIPR);
  const result: RankedRunScore = {
    evaluatedDocs: documents.length,
    tp,
    fp: seen - tp,
    fn: goldTotal - tp,
    micro: { p: microP, r: microR, f: f1(microP, microR), aucIPR: aucFromCurve(ps, rs) },
    macro: {
      p: mean(macroP),
      r: mean(macroR),
      f: mean(macroF),
      aucIPR: mean(macroAuc),
      sdP: populationSd(macroP),
      sdR: populationSd(macroR),
      sdF: populationSd(macroF),
      sdAucIPR: populationSd(macroAuc),
    },
    documents,
  };
  if (options.beta !== undefined) result.fBeta = mean(column((d) => d.fBeta ?? 0));
  return result;
}
