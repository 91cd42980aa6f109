// Runs the two official normalization tools and `metaserver score NORM` on the cases
// norm-cases.ts wrote, and compares every figure:
//
//   npx tsx scripts/differential/norm-compare.ts CASES_DIR BC5CDR_EVAL_JAR EVALUATE_PY
//
// The tools run in one JVM and one Python process over all cases (NormBc5cdrBatch.java,
// norm-evaluate-batch.py: each calls the tool's own entry point once per case).
//
// - BC5CDR_Evaluation 0.0.3 (`java -cp JAR ncbi.bc5cdr_eval.Evaluate mention|id TYPES
//   PubTator|BioC GOLD RUN`, TYPES the type of type.txt or every type joined by `|`) on the
//   PubTator and the BioC files: TP, FP, FN exactly, P, R, F as the doubles Java prints
//   (its NaN, 0/0, is 0 in ours).
// - evaluate.py (`python3 EVALUATE_PY -r gold.xml -p run.xml -t span|identifier -m
//   strict|approx -a TYPE|None`) on the BioC files: P, R, F as it prints them (4 digits).
//   A case it refuses because the documents differ is run again with
//   --no_document_verification (counted), as ours scores it.
//
// Prints one line per difference or tool crash and a summary; exits 1 on any difference.

import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScoreCommand } from '../../src/cli/score.ts';
import type { NormScore } from '../../src/scoring/concept-norm.ts';
import { pythonFixed } from '../../src/scoring/topic.ts';

const [casesDir, jar, evaluatePy] = process.argv.slice(2);
if (!casesDir || !jar || !evaluatePy) {
  console.error('usage: norm-compare.ts CASES_DIR BC5CDR_EVAL_JAR EVALUATE_PY');
  process.exit(2);
}

const ALL_TYPES = 'Disease|Chemical|Gene';
const tally = { cases: 0, runs: new Map<string, number>(), figures: 0, differences: 0, crashes: 0, unverified: 0 };
const count = (tool: string): void => void tally.runs.set(tool, (tally.runs.get(tool) ?? 0) + 1);

async function ours(gold: string, run: string, type: string): Promise<NormScore> {
  let out = '';
  let err = '';
  const io = {
    stdout: (s: string) => void (out += s),
    stderr: (s: string) => void (err += s),
    readFile: (p: string) => Promise.resolve(readFileSync(p, 'utf8')),
    readDir: () => Promise.reject(Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })),
  };
  const code = await runScoreCommand(['NORM', '--gold', gold, ...(type ? ['--type', type] : []), run], io);
  if (code !== 0) throw new Error(`metaserver score NORM ${gold} ${run}: exit ${code}: ${err}`);
  return (JSON.parse(out) as { runs: Array<{ metrics: NormScore }> }).runs[0].metrics;
}

function differ(where: string, figure: string, tool: string, mine: string): void {
  tally.figures++;
  if (tool === mine) return;
  tally.differences++;
  console.log(`DIFF ${where} ${figure}: tool ${tool}, ours ${mine}`);
}

function compareJar(where: string, stdout: string, mine: NormScore['mention']): void {
  const value = (label: string): string => new RegExp(`^${label}: (.*)$`, 'm').exec(stdout)?.[1] ?? '(missing)';
  for (const [label, key] of [
    ['TP', 'tp'],
    ['FP', 'fp'],
    ['FN', 'fn'],
  ] as const)
    differ(where, label, value(label), String(mine[key]));
  for (const [label, key] of [
    ['Precision', 'p'],
    ['Recall', 'r'],
    ['F-score', 'f'],
  ] as const) {
    const printed = value(label);
    differ(where, label, String(printed === 'NaN' ? 0 : Number(printed)), String(mine[key]));
  }
}

interface Job {
  where: string;
  args: string[];
  check: (out: Batch) => void;
}
interface Batch {
  stdout: string;
  stderr: string;
  status: string;
}

/** Runs a batch driver once over every job's arguments (one per line) and splits what it printed. */
function batch(command: string, args: string[], jobs: readonly Job[]): Batch[] {
  const input = jobs.map((j) => `${j.args.join('\t')}\n`).join('');
  const result = spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  const parts = result.stdout.split('=== BEGIN\n').slice(1);
  if (parts.length !== jobs.length) throw new Error(`${command}: ${parts.length} outputs for ${jobs.length} runs`);
  return parts.map((part) => {
    const end = /=== END (.*)\n$/.exec(part)!;
    const body = part.slice(0, end.index);
    const [stdout, stderr = ''] = body.split('=== STDERR\n');
    return { stdout, stderr, status: end[1] };
  });
}

function jarJob(dir: string, evaluation: 'mention' | 'id', format: 'PubTator' | 'BioC', type: string, mine: NormScore): Job {
  const ext = format === 'PubTator' ? 'pubtator' : 'xml';
  const where = `${dir} eval_${evaluation} ${format}`;
  return {
    where,
    args: [evaluation, type || ALL_TYPES, format, join(dir, `gold.${ext}`), join(dir, `run.${ext}`)],
    check(out) {
      count(`eval_${evaluation} ${format}`);
      if (out.status !== 'ok') {
        tally.crashes++;
        console.log(`CRASH ${where}: ${out.status}`);
        return;
      }
      compareJar(where, out.stdout, mine[evaluation]);
    },
  };
}

function evaluateJob(dir: string, t: 'span' | 'identifier', m: 'strict' | 'approx', type: string, mine: NormScore): Job {
  const where = `${dir} evaluate.py ${t} ${m}`;
  return {
    where,
    args: ['-r', join(dir, 'gold.xml'), '-p', join(dir, 'run.xml'), '-t', t, '-m', m, '-a', type || 'None', '-l', 'ERROR'],
    check(out) {
      count(`evaluate.py ${t} ${m}`);
      const printed = /^P = (\S+), R = (\S+), F = (\S+)$/m.exec(out.stdout);
      if (out.status !== '0' || !printed) {
        tally.crashes++;
        console.log(`CRASH ${where}: ${out.stderr.trim().split('\n').slice(-1)[0]}`);
        return;
      }
      const figures = t === 'span' ? mine.span[m] : mine.identifier.strict;
      (['p', 'r', 'f'] as const).forEach((k, i) => differ(where, k.toUpperCase(), printed[i + 1], pythonFixed(figures[k], 4)));
    },
  };
}

const here = dirname(fileURLToPath(import.meta.url));
const jarJobs: Job[] = [];
const evaluateJobs: Job[] = [];
for (const name of readdirSync(casesDir).sort()) {
  const dir = join(casesDir, name);
  const type = readFileSync(join(dir, 'type.txt'), 'utf8').trim();
  tally.cases++;
  const pubtator = await ours(join(dir, 'gold.pubtator'), join(dir, 'run.pubtator'), type);
  const bioc = await ours(join(dir, 'gold.xml'), join(dir, 'run.xml'), type);
  for (const evaluation of ['mention', 'id'] as const) {
    jarJobs.push(jarJob(dir, evaluation, 'PubTator', type, pubtator), jarJob(dir, evaluation, 'BioC', type, bioc));
  }
  evaluateJobs.push(
    evaluateJob(dir, 'span', 'strict', type, bioc),
    evaluateJob(dir, 'span', 'approx', type, bioc),
    evaluateJob(dir, 'identifier', 'strict', type, bioc),
  );
}

const jarOut = batch('java', ['-cp', jar, join(here, 'NormBc5cdrBatch.java')], jarJobs);
jarJobs.forEach((job, i) => job.check(jarOut[i]));
const pyArgs = [join(here, 'norm-evaluate-batch.py'), evaluatePy];
const evaluateOut = batch('python3', pyArgs, evaluateJobs);
// evaluate.py refuses gold and run with other documents (exit 1); ours scores them as its --no_document_verification does.
const refused = evaluateJobs.flatMap((job, i) =>
  evaluateOut[i].status === '1' && /Prediction path (is missing|contains extra) documents/.test(evaluateOut[i].stderr) ? [i] : [],
);
tally.unverified = refused.length;
const again = batch(
  'python3',
  pyArgs,
  refused.map((i) => ({ ...evaluateJobs[i], args: [...evaluateJobs[i].args, '--no_document_verification'] })),
);
refused.forEach((i, k) => (evaluateOut[i] = again[k]));
evaluateJobs.forEach((job, i) => job.check(evaluateOut[i]));

console.log(`cases: ${tally.cases}`);
for (const [tool, n] of tally.runs) console.log(`  ${tool}: ${n} runs`);
console.log(`figures compared: ${tally.figures}, differences: ${tally.differences}, tool crashes: ${tally.crashes}`);
console.log(`evaluate.py runs repeated with --no_document_verification (documents differ): ${tally.unverified}`);
process.exit(tally.differences > 0 ? 1 : 0);
