// Runs BC5CDR's relation evaluation (BC5CDR_Evaluation-0.0.3's jar, as eval_relation.sh
// calls it: `Evaluate relation CID <PubTator|BioC> GOLD RUN`) and `metaserver score CID`
// on every case cid-cases.ts wrote, in both formats, and compares TP, FP, FN exactly and
// P, R, F as numbers (the tool prints NaN for 0/0, where we give 0). A case the tool stops
// on must be refused by ours too.
//
//   npx tsx scripts/differential/cid-compare.ts <bc5cdr_eval.jar> <cases-dir>
//
// Prints one line per difference and a summary; exits 1 when any case differs.

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cidScoreCli } from '../../src/families/crel/cid.ts';
import { ScoreFiles } from '../../src/scoring/score-files.ts';

const [jar, casesDir] = process.argv.slice(2);
if (!jar || !casesDir) {
  console.error('usage: cid-compare.ts <bc5cdr_eval.jar> <cases-dir>');
  process.exit(2);
}

const FIGURES = { TP: 'tp', FP: 'fp', FN: 'fn', Precision: 'p', Recall: 'r', 'F-score': 'f' } as const;
type Figures = Record<(typeof FIGURES)[keyof typeof FIGURES], number>;

function official(format: string, gold: string, run: string): Figures | 'refused' {
  let stdout: string;
  try {
    stdout = execFileSync('java', ['-cp', jar, 'ncbi.bc5cdr_eval.Evaluate', 'relation', 'CID', format, gold, run], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return 'refused';
  }
  const figures = {} as Figures;
  for (const line of stdout.split('\n')) {
    const m = /^(TP|FP|FN|Precision|Recall|F-score): (.*)$/.exec(line);
    if (m) figures[FIGURES[m[1] as keyof typeof FIGURES]] = m[2] === 'NaN' ? 0 : Number(m[2]);
  }
  return figures;
}

async function ours(gold: string, run: string): Promise<Figures | 'refused'> {
  const files = new ScoreFiles(
    {
      stdout: () => {},
      stderr: () => {},
      readFile: async (p) => readFileSync(p, 'utf8'),
      readDir: async () => Promise.reject(new Error('ENOTDIR')),
    },
    () => {},
    () => {},
  );
  try {
    const [scored] = await cidScoreCli.score([run], { gold, columns: 'tsv', format: 'json' } as never, files);
    return scored.metrics as Figures;
  } catch {
    return 'refused';
  }
}

let compared = 0;
let differences = 0;
let refusedByBoth = 0;
for (const name of readdirSync(casesDir).sort()) {
  for (const [format, ext] of [
    ['PubTator', 'pubtator'],
    ['BioC', 'bioc.xml'],
  ] as const) {
    const gold = join(casesDir, name, `gold.${ext}`);
    const run = join(casesDir, name, `run.${ext}`);
    const theirs = official(format, gold, run);
    const mine = await ours(gold, run);
    compared++;
    if (theirs === 'refused' || mine === 'refused') {
      if (theirs === mine) refusedByBoth++;
      else {
        differences++;
        console.log(
          `${name} ${format}: tool ${theirs === 'refused' ? 'refused' : 'scored'}, ours ${mine === 'refused' ? 'refused' : 'scored'}`,
        );
      }
      continue;
    }
    for (const key of Object.values(FIGURES)) {
      if (theirs[key] !== mine[key]) {
        differences++;
        console.log(`${name} ${format}: ${key} tool ${theirs[key]} ours ${mine[key]}`);
      }
    }
  }
}
console.log(`${compared} comparisons (${refusedByBoth} refused by both), ${differences} difference(s)`);
process.exit(differences === 0 ? 0 : 1);
