// The DrugProt evaluation library's own example: its sample gold standard and toy
// predictions (test/fixtures/drugprot, MIT), scored by `metaserver score REL`, against the
// figures the library's README prints for them, at the three decimals it prints.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from '../../support/score-cli.ts';

const DATA = join(import.meta.dirname, '../../fixtures/drugprot');

/** The library's README, "Examples": p, r, f1 by relation type, then micro-averaged. */
const PRINTED: Record<string, [number, number, number]> = {
  'INDIRECT-DOWNREGULATOR': [1.0, 0.5, 0.667],
  'DIRECT-REGULATOR': [1.0, 1.0, 1.0],
  ACTIVATOR: [1.0, 1.0, 1.0],
  INHIBITOR: [1.0, 0.8, 0.889],
  AGONIST: [0.8, 0.667, 0.727],
  ANTAGONIST: [1.0, 1.0, 1.0],
  'PART-OF': [1.0, 0.5, 0.667],
};
const MICRO: [number, number, number] = [0.783, 0.72, 0.75];

const rounded = (m: { p: number; r: number; f: number }) => [m.p, m.r, m.f].map((x) => Math.round(x * 1000) / 1000);

describe("the DrugProt evaluation library's example", () => {
  it('scores as the library prints: every gold type and the micro average', async () => {
    const { code, out } = await score(
      'REL',
      '--gold',
      join(DATA, 'gs_relations.tsv'),
      '--entities',
      join(DATA, 'gs_entities.tsv'),
      '--pmids',
      join(DATA, 'pmids.txt'),
      join(DATA, 'pred_relations.tsv'),
    );
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    expect(rounded(metrics.micro)).toEqual(MICRO);
    // The library reports the types the gold standard has, and only those.
    expect(Object.keys(metrics.perType).sort()).toEqual(Object.keys(PRINTED).sort());
    for (const [type, figures] of Object.entries(PRINTED)) expect(rounded(metrics.perType[type]), type).toEqual(figures);
  });
});
