// Random cases for the TOPIC differential run: gold standards and predictions in the
// LitCovid track's official form (PMID,<label>,… of 0/1 and of probabilities), and the
// same cases in the list forms metaserver also reads. Seeded, so a run can be repeated.
//
//   npx tsx scripts/differential/topic-cases.ts <out-dir> [--count 300] [--seed 1]
//
// Each case is a folder <out-dir>/<n>/ with gold.csv, pred.csv (official form),
// gold.list.csv (PMID,label;label) and pred.list.tsv (PMID<TAB>label;label, the labels
// above 0.5). The track's script is run on gold.csv/pred.csv beside `metaserver score
// TOPIC`; topic-compare.ts compares what they print.
//
// The cases lean on the rules that matter: labels nobody predicts or nobody has, documents
// with no label in gold or prediction, probabilities at and around the 0.5 threshold,
// written in several ways (0.5, 5e-1, 0.50000001), rows in different orders, single
// documents, and a few runs the script refuses (a PMID missing or repeated).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../src/shared/prng.ts';

const LABELS = ['Treatment', 'Diagnosis', 'Prevention', 'Mechanism', 'Transmission', 'Epidemic Forecasting', 'Case Report'];

function parseArgs(argv: string[]): { out: string; count: number; seed: number } {
  const out = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!out) {
    process.stderr.write('usage: topic-cases.ts <out-dir> [--count 300] [--seed 1]\n');
    process.exit(2);
  }
  const flag = (name: string, fallback: number): number => {
    const i = argv.indexOf(`--${name}`);
    return i < 0 ? fallback : Number(argv[i + 1]);
  };
  return { out, count: flag('count', 300), seed: flag('seed', 1) };
}

function main(): void {
  const { out, count, seed } = parseArgs(process.argv.slice(2));
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
  /** A probability, sometimes exactly at or just around the threshold, in varied notations. */
  const probability = (high: boolean): string => {
    const r = random();
    if (r < 0.06) return pick(['0.5', '5e-1', '0.50', '0.5000000001', '0.4999999999', '1', '0', '1.0', '0.0']);
    if (r < 0.1) return pick(['7.2504685e-05', '1e-8', '0.99999994']);
    const value = high ? 0.5 + random() / 2 : random() / 2;
    return String(Math.round(value * 1e8) / 1e8);
  };
  for (let n = 1; n <= count; n++) {
    const docs = pick([1, 1, 2, 3, 5, 8, 13, 20, 40, 80, 150, 300]);
    const pmids = new Set<number>();
    while (pmids.size < docs) pmids.add(pick([Math.floor(random() * 100), Math.floor(random() * 40_000_000)]));
    const ids = [...pmids];
    // Per case, each label's frequency in the gold and how well the "system" finds it.
    const frequency = LABELS.map(() => pick([0, 0.02, 0.1, 0.3, 0.6, 0.95]));
    const skill = LABELS.map(() => pick([0, 0.3, 0.7, 0.9, 1]));
    const noise = pick([0, 0.05, 0.2, 0.5]);
    const gold = ids.map((id) => ({ id, labels: LABELS.map((_, k) => random() < frequency[k]) }));
    const pred = gold.map((g) => ({
      id: g.id,
      values: g.labels.map((has, k) => probability(has ? random() < skill[k] : random() < noise)),
    }));
    // Now and then a run the script refuses: a document missing, or one given twice.
    const flaw = random();
    if (flaw < 0.03 && pred.length > 1) pred.pop();
    else if (flaw < 0.05) pred.push({ ...pred[0] });
    shuffle(gold);
    shuffle(pred);
    const dir = join(out, String(n));
    mkdirSync(dir, { recursive: true });
    const header = `PMID,${LABELS.join(',')}\n`;
    writeFileSync(join(dir, 'gold.csv'), header + gold.map((g) => `${g.id},${g.labels.map((b) => (b ? 1 : 0)).join(',')}\n`).join(''));
    writeFileSync(join(dir, 'pred.csv'), header + pred.map((p) => `${p.id},${p.values.join(',')}\n`).join(''));
    writeFileSync(
      join(dir, 'gold.list.csv'),
      'PMID,label\n' + gold.map((g) => `${g.id},${LABELS.filter((_, k) => g.labels[k]).join(';')}\n`).join(''),
    );
    writeFileSync(
      join(dir, 'pred.list.tsv'),
      pred.map((p) => `${p.id}\t${LABELS.filter((_, k) => Number(p.values[k]) > 0.5).join(';')}\n`).join(''),
    );
  }
  process.stdout.write(`${count} cases in ${out} (seed ${seed})\n`);
}

main();
