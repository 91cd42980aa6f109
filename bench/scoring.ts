// Scoring benchmark at BC II.5 scale: ACT 595 documents × 15 runs; INT 61 gold documents,
// 52 runs × 595 documents × up to 30 accessions; IPT the same with 45 runs of pairs.
// Data come from a fixed seed and are written to a temp dir. For each task it prints:
//   - library work: parsing the texts + scoring, no file reading, in this process after a
//     warm-up pass (as a long-running server scores), median and best of ROUNDS passes;
//   - whole process: the user's command, `node bin/metaserver.js score TASK --gold … RUN…`,
//     in a fresh process from spawn to exit, median and best of ROUNDS starts: from the
//     bundle (built first, as `npm start` builds it) and from the sources through tsx
//     (METASERVER_NO_BUNDLE=1); beside a bare `node -e ""` start, the floor.
//
//   node --import tsx bench/scoring.ts [rounds=7]

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  orderModeOf,
  parseActGold,
  parseActRun,
  parseIntGold,
  parseIntRun,
  parseIptGold,
  parseIptRun,
  scoreActRun,
  scoreRankedRun,
} from '../src/scoring/index.ts';
import { mulberry32 } from '../src/shared/prng.ts';

const ROUNDS = Number(process.argv[2] ?? 7);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = 595;
const GOLD_DOCS = 61;
const RUNS = { ACT: 15, INT: 52, IPT: 45 } as const;
type Task = keyof typeof RUNS;

const rand = mulberry32(20090601);
const int = (n: number) => Math.floor(rand() * n);
const docId = (i: number) => `PMC${String(100000 + i)}`;
const accession = (i: number) => `P${String(i).padStart(5, '0')}`;
const docs = Array.from({ length: DOCS }, (_, i) => docId(i));
const goldDocs = new Set<string>();
while (goldDocs.size < GOLD_DOCS) goldDocs.add(docs[int(DOCS)]);

/** Up to `max` distinct items drawn by `draw`, gold items mixed in for gold documents. */
function pickItems(draw: () => string, max: number, gold: string[] = []): string[] {
  const items = new Set<string>();
  for (const g of gold) if (rand() < 0.6) items.add(g);
  const n = 1 + int(max);
  while (items.size < n) items.add(draw());
  return [...items].sort(() => rand() - 0.5).slice(0, max);
}

const drawAccession = () => accession(int(20000));
const drawPair = () => {
  const a = drawAccession();
  const b = drawAccession();
  return a <= b ? `${a}\t${b}` : `${b}\t${a}`;
};

function rankedLines(items: string[], doc: string): string[] {
  return items.map((item, i) => `${doc}\t${item}\t${i + 1}\t${(1 - i / (items.length + 1)).toFixed(4)}`);
}

function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  const intGold = new Map<string, string[]>();
  const iptGold = new Map<string, string[]>();
  for (const doc of goldDocs) {
    intGold.set(doc, pickItems(drawAccession, 10));
    iptGold.set(doc, pickItems(drawPair, 6));
  }
  files['act-gold.tsv'] = docs.map((doc) => `${doc}\t${goldDocs.has(doc) ? 1 : 0}`).join('\n') + '\n';
  files['int-gold.tsv'] = [...intGold].flatMap(([doc, items]) => items.map((a) => `${doc}\t${a}`)).join('\n') + '\n';
  files['ipt-gold.tsv'] = [...iptGold].flatMap(([doc, items]) => items.map((p) => `${doc}\t${p}`)).join('\n') + '\n';
  for (let r = 0; r < RUNS.ACT; r++) {
    const order = docs.map((doc) => ({ doc, score: rand() + (goldDocs.has(doc) ? 0.3 : 0) })).sort((a, b) => b.score - a.score);
    const trues = order.filter((o) => o.score > 0.8);
    const falses = order.filter((o) => o.score <= 0.8).reverse();
    const lines = [
      ...trues.map((o, i) => `${o.doc}\t1\t${i + 1}\t${Math.min(1, o.score / 1.3).toFixed(4)}`),
      ...falses.map((o, i) => `${o.doc}\t0\t${i + 1}\t${Math.max(0.0001, o.score / 1.3).toFixed(4)}`),
    ];
    files[`act/run${r}.tsv`] = lines.join('\n') + '\n';
  }
  for (let r = 0; r < RUNS.INT; r++) {
    files[`int/run${r}.tsv`] = docs.flatMap((doc) => rankedLines(pickItems(drawAccession, 30, intGold.get(doc)), doc)).join('\n') + '\n';
  }
  for (let r = 0; r < RUNS.IPT; r++) {
    files[`ipt/run${r}.tsv`] = docs.flatMap((doc) => rankedLines(pickItems(drawPair, 30, iptGold.get(doc)), doc)).join('\n') + '\n';
  }
  return files;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** "median s (best s)": the machine is often shared, and the best shows what it can do unloaded. */
const seconds = (xs: number[]): string => `${median(xs).toFixed(3)} s (best ${Math.min(...xs).toFixed(3)} s)`;

/**
 * Parse + score every run of one task from texts already in memory, in seconds, as the
 * score command does it (INT/IPT runs are parsed for the gold's documents only).
 */
function libraryWork(task: Task, gold: string, runs: string[]): { parse: number; score: number } {
  const mode = orderModeOf('rank,confidence');
  let parse = 0;
  let score = 0;
  let t = performance.now();
  if (task === 'ACT') {
    const g = parseActGold(gold).value;
    parse += performance.now() - t;
    for (const text of runs) {
      t = performance.now();
      const run = parseActRun(text).value;
      parse += performance.now() - t;
      t = performance.now();
      scoreActRun(g, run, mode);
      score += performance.now() - t;
    }
    return { parse: parse / 1000, score: score / 1000 };
  }
  const g = task === 'INT' ? parseIntGold(gold) : parseIptGold(gold);
  parse += performance.now() - t;
  for (const text of runs) {
    t = performance.now();
    const run = task === 'INT' ? parseIntRun(text, { documents: g }) : parseIptRun(text, { documents: g });
    parse += performance.now() - t;
    t = performance.now();
    scoreRankedRun(g, run, { task, mode, cutoff: 30, beta: 10 });
    score += performance.now() - t;
  }
  return { parse: parse / 1000, score: score / 1000 };
}

/** Seconds from spawn to exit of a fresh `node args…`; it must exit 0. */
function wholeProcess(args: string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  if (child.status !== 0) throw new Error(`node ${args.slice(0, 3).join(' ')} … exited ${child.status}`);
  return (performance.now() - started) / 1000;
}

interface BundleScript {
  ensureBundle(): Promise<void>;
  freshBundle(): string | null;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'metaserver-bench-'));
  try {
    const files = generate();
    for (const sub of ['act', 'int', 'ipt']) await mkdir(join(dir, sub));
    await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text)));
    // The bundle bin/metaserver.js runs when it matches the sources (scripts/bundle.mjs).
    const bundle = (await import(new URL('../scripts/bundle.mjs', import.meta.url).href)) as BundleScript;
    await bundle.ensureBundle().catch((error: Error) => console.error(`bench: could not build the bundle (${error.message})`));
    const cpu = cpus();
    console.log(
      `machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}, load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `medians of ${ROUNDS} rounds; floor of a whole process, node -e "": ${seconds(Array.from({ length: ROUNDS }, () => wholeProcess(['-e', ''])))}`,
    );
    for (const task of ['ACT', 'INT', 'IPT'] as const) {
      const lower = task.toLowerCase();
      const runNames = Object.keys(files)
        .filter((n) => n.startsWith(`${lower}/`))
        .sort();
      // The texts as the score command gets them: read back from the files (flat strings;
      // the generated ones are concatenations, slower to read character by character).
      const runs = runNames.map((n) => readFileSync(join(dir, n), 'utf8'));
      const gold = readFileSync(join(dir, `${lower}-gold.tsv`), 'utf8');
      const lines = runs.reduce((sum, text) => sum + text.split('\n').length - 1, 0);
      libraryWork(task, gold, runs); // warm-up: JIT
      const work = Array.from({ length: ROUNDS }, () => libraryWork(task, gold, runs));
      const parse = median(work.map((w) => w.parse));
      const score = median(work.map((w) => w.score));
      const totals = work.map((w) => w.parse + w.score);
      const args = ['bin/metaserver.js', 'score', task, '--gold', join(dir, `${lower}-gold.tsv`), ...runNames.map((n) => join(dir, n))];
      const fromBundle: number[] = [];
      const fromSources: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        fromBundle.push(wholeProcess(args));
        fromSources.push(wholeProcess(args, { METASERVER_NO_BUNDLE: '1' }));
      }
      const bundled = bundle.freshBundle() ? 'from the bundle' : 'bundle stale: from the sources';
      console.log(`${task}: ${runs.length} runs, ${lines} result lines`);
      console.log(`  library work  ${seconds(totals)} (parse ${parse.toFixed(3)} s, score ${score.toFixed(3)} s)`);
      console.log(`  whole process ${seconds(fromBundle)} ${bundled}; ${seconds(fromSources)} from the sources (tsx)`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
