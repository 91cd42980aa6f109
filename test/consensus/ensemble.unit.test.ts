import { describe, expect, it } from 'vitest';
import {
  applyEnsemble,
  ensembleResult,
  parseEnsemble,
  serializeEnsemble,
  trainEnsemble,
  type EnsembleDocument,
} from '../../src/consensus/ensemble.ts';
import { scoreRankedRun, type GoldItems, type RankedRun } from '../../src/scoring/index.ts';
import type { AnswerResult } from '../../src/families/registry.ts';
import type { NormalizationItem } from '../../src/families/int/types.ts';
import { mulberry32 } from '../../src/shared/prng.ts';

interface Challenge {
  documents: EnsembleDocument[];
  gold: GoldItems;
}

/**
 * Runs with complementary strengths: A is reliable on even documents (gold items on top,
 * confident) and poor on odd ones (noise on top, gold items low and unsure); B the mirror
 * image; C is noise with random confidences that finds half the gold items.
 */
function syntheticChallenge(seed: number, size: number): Challenge {
  const random = mulberry32(seed);
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * random();
  const accession = () => `P${String(Math.floor(random() * 90000) + 10000)}`;
  const documents: EnsembleDocument[] = [];
  const gold: GoldItems = new Map();
  const ranked = (entries: Array<[string, number]>): NormalizationItem[] =>
    [...new Map(entries)].sort((x, y) => y[1] - x[1]).map(([key, confidence], i) => ({ accession: key, rank: i + 1, confidence }));
  for (let d = 0; d < size; d++) {
    const id = `doc${String(d).padStart(4, '0')}`;
    const goldItems = [...new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, accession))];
    gold.set(id, goldItems);
    const reliable = (good: boolean): NormalizationItem[] => {
      const entries: Array<[string, number]> = [];
      for (const g of goldItems) {
        if (good ? random() < 0.9 : random() < 0.5) entries.push([g, good ? uniform(0.7, 1) : uniform(0.05, 0.3)]);
      }
      for (let n = 0; n < (good ? 3 : 5); n++) entries.push([accession(), good ? uniform(0.1, 0.4) : uniform(0.35, 0.65)]);
      return ranked(entries);
    };
    const noisy: Array<[string, number]> = goldItems.filter(() => random() < 0.5).map((g) => [g, random()]);
    for (let n = 0; n < 5; n++) noisy.push([accession(), random()]);
    documents.push({ id, runs: { A: { INT: reliable(d % 2 === 0) }, B: { INT: reliable(d % 2 === 1) }, C: { INT: ranked(noisy) } } });
  }
  return { documents, gold };
}

function asRankedRun(results: Map<string, AnswerResult>): RankedRun {
  const run: RankedRun = new Map();
  for (const [doc, result] of results) {
    run.set(
      doc,
      (result.INT ?? []).map((item, i) => ({ key: item.accession, rank: item.rank, confidence: item.confidence, line: i + 1 })),
    );
  }
  return run;
}

const CUTOFF = 5;

function figures(gold: GoldItems, results: Map<string, AnswerResult>) {
  const score = scoreRankedRun(gold, asRankedRun(results), { task: 'INT', cutoff: CUTOFF, all: true });
  return { macroF: score.macro.f, macroAuc: score.macro.aucIPR };
}

describe('trained ensemble (BC II.5 §5.5)', () => {
  const train = syntheticChallenge(1, 200);
  const test = syntheticChallenge(2, 200);
  const model = trainEnsemble(train.documents, train.gold, { task: 'INT' });

  it('beats the best single run on held-out documents', () => {
    const single = ['A', 'B', 'C'].map((run) => ({
      run,
      ...figures(test.gold, new Map(test.documents.map((d) => [d.id, d.runs[run]!]))),
    }));
    const ensemble = figures(test.gold, new Map(test.documents.map((d) => [d.id, ensembleResult(model, d)])));
    const bestF = Math.max(...single.map((s) => s.macroF));
    const bestAuc = Math.max(...single.map((s) => s.macroAuc));
    for (const s of single)
      console.log(`run ${s.run}: macro F@${CUTOFF} = ${s.macroF.toFixed(4)}, macro AUC iP/R = ${s.macroAuc.toFixed(4)}`);
    console.log(
      `ensemble: macro F@${CUTOFF} = ${ensemble.macroF.toFixed(4)}, macro AUC iP/R = ${ensemble.macroAuc.toFixed(4)} (best single run: F ${bestF.toFixed(4)}, AUC ${bestAuc.toFixed(4)})`,
    );
    expect(model.training.converged).toBe(true);
    expect(ensemble.macroF).toBeGreaterThan(bestF);
    expect(ensemble.macroAuc).toBeGreaterThan(bestAuc);
  });

  it('learns that a guess, a good rank and a high confidence all count', () => {
    expect(model.runs).toEqual(['A', 'B', 'C']);
    expect(model.cutoffs).toEqual([10, 10, 10]);
    expect(model.features.slice(0, 3)).toEqual(['A:guessed', 'A:reciprocalRank', 'A:confidence']);
    // A's confidence separates its gold items from its noise; C's carries no signal.
    expect(model.weights[3]).toBeGreaterThan(Math.abs(model.weights[9]));
  });

  it('serialises with its version and run list, and predicts the same after reloading', () => {
    const reloaded = parseEnsemble(serializeEnsemble(model));
    expect(reloaded).toEqual(model);
    expect(applyEnsemble(reloaded, test.documents[0])).toEqual(applyEnsemble(model, test.documents[0]));
    expect(() => parseEnsemble(JSON.stringify({ ...model, version: 2 }))).toThrow(/version 2/);
    expect(() => parseEnsemble(JSON.stringify({ ...model, weights: [1] }))).toThrow(/finite weights/);
  });

  it('takes only the top k of each run as candidates', () => {
    const small = trainEnsemble(train.documents, train.gold, { task: 'INT', cutoffs: { A: 1, B: 1, C: 1 } });
    const doc = test.documents[0];
    const tops = new Set(['A', 'B', 'C'].map((r) => doc.runs[r]!.INT!.find((i) => i.rank === 1)!.accession));
    expect(new Set(applyEnsemble(small, doc).map((i) => i.key))).toEqual(tops);
  });

  it('ranks IPT pairs too, as sorted pairs', () => {
    const docs: EnsembleDocument[] = [
      {
        id: 'd1',
        runs: {
          X: {
            IPT: [
              { a: 'A', b: 'B', rank: 1, confidence: 0.9 },
              { a: 'C', b: 'D', rank: 2, confidence: 0.2 },
            ],
          },
        },
      },
      {
        id: 'd2',
        runs: {
          X: {
            IPT: [
              { a: 'E', b: 'F', rank: 1, confidence: 0.8 },
              { a: 'G', b: 'H', rank: 2, confidence: 0.1 },
            ],
          },
        },
      },
    ];
    const gold: GoldItems = new Map([
      ['d1', ['A\tB']],
      ['d2', ['E\tF']],
    ]);
    const ipt = trainEnsemble(docs, gold, { task: 'IPT' });
    expect(ensembleResult(ipt, docs[0]).IPT!.map((p) => [p.a, p.b, p.rank])).toEqual([
      ['A', 'B', 1],
      ['C', 'D', 2],
    ]);
  });
});
