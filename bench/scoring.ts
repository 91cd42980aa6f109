// Scoring benchmark at BC II.5 scale: ACT 595 documents × 15 runs; INT 61 gold documents,
// 52 runs × 595 documents × up to 30 accessions; IPT the same with 45 runs of pairs.
// Data come from a fixed seed and are written to a temp dir. For each task it prints the
// in-library work (parsing the texts + scoring, no file reading) and the whole process
// (a fresh `node --import tsx` running the score command on the files).
//
//   node --import tsx bench/scoring.ts

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { runScoreCommand } from '../src/cli/score.ts';
import {
  orderModeOf, parseActGold, parseActRun, parseIntGold, parseIntRun, parseIptGold, parseIptRun,
  scoreActRun, scoreRankedRun,
} from '../src/scoring/index.ts';
import { mulberry32 } from '../src/shared/prng.ts';

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

/** Parse + score every run of one task from texts already in memory. */
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
    const run = task === 'INT' ? parseIntRun(text) : parseIptRun(text);
    parse += performance.now() - t;
    t = performance.now();
    scoreRankedRun(g, run, { task, mode, cutoff: 30, beta: 10 });
    score += performance.now() - t;
  }
  return { parse: parse / 1000, score: score / 1000 };
}

/** A fresh process scoring all runs of a task through the CLI module, timed from spawn to exit. */
function wholeProcess(task: Task, dir: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', task, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`child exited ${code}`))));
  });
}

async function child(task: Task, dir: string): Promise<void> {
  const runDir = join(dir, task.toLowerCase());
  const runs = (await readdir(runDir)).map((name) => join(runDir, name));
  const code = await runScoreCommand([task, '--gold', join(dir, `${task.toLowerCase()}-gold.tsv`), ...runs], {
    stdout: () => {},
    stderr: (s) => process.stderr.write(s),
    readFile: (p) => readFile(p, 'utf8'),
    readDir: (p) => readdir(p),
  });
  process.exitCode = code;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'metaserver-bench-'));
  try {
    const files = generate();
    for (const sub of ['act', 'int', 'ipt']) await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, sub)));
    await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text)));
    console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}`);
    for (const task of ['ACT', 'INT', 'IPT'] as const) {
      const prefix = `${task.toLowerCase()}/`;
      const runs = Object.keys(files).filter((n) => n.startsWith(prefix)).map((n) => files[n]);
      const lines = runs.reduce((sum, text) => sum + text.split('\n').length - 1, 0);
      libraryWork(task, files[`${task.toLowerCase()}-gold.tsv`], runs); // warm-up: JIT
      const work = libraryWork(task, files[`${task.toLowerCase()}-gold.tsv`], runs);
      const whole = await wholeProcess(task, dir);
      console.log(
        `${task}: ${runs.length} runs, ${lines} result lines — library work ${(work.parse + work.score).toFixed(3)} s ` +
          `(parse ${work.parse.toFixed(3)} s, score ${work.score.toFixed(3)} s); whole process ${whole.toFixed(3)} s`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as Task, process.argv[4]);
else await main();
