// Compares, case by case, what the DrugProt evaluation library printed (official.out and
// official.rc in each folder rel-cases.ts wrote, from running its src/main.py with -g gold.tsv
// -e entities.tsv -p pred.tsv --pmids pmids.txt) with what the REL scorer computes on the
// same files: micro and per-type P/R/F at the library's 3 decimals, and which types it
// reports. A case the library stopped on is counted apart, with its last error line.
//
//   npx tsx scripts/differential/rel-compare.ts <cases-dir>
//
// Prints one line per difference and a summary; exits 1 when any case differs.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parsePmids, parseRelEntities, parseRelRelations, scoreRelations, type RelCounts } from '../../src/scoring/index.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: rel-compare.ts CASES_DIR');
  process.exit(2);
}

/** Python's round(x, 3) as the library prints it (an exact tie goes to the even digit; repr of the rounded float). */
const py3 = (x: number): string => {
  const scaled = x * 1000;
  const floor = Math.floor(scaled);
  const r = (scaled - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled)) / 1000;
  return Number.isInteger(r) ? `${r}.0` : String(r);
};

function ours(caseDir: string): Map<string, string> {
  const read = (f: string) => readFileSync(join(caseDir, f), 'utf8');
  const s = scoreRelations({
    entities: parseRelEntities(read('entities.tsv'), { file: 'entities.tsv' }),
    gold: parseRelRelations(read('gold.tsv'), { file: 'gold.tsv' }),
    predicted: parseRelRelations(read('pred.tsv'), { file: 'pred.tsv' }),
    pmids: parsePmids(read('pmids.txt')),
  });
  const figures = new Map<string, string>();
  const put = (suffix: string, c: RelCounts) => {
    figures.set(`p_${suffix}`, py3(c.p));
    figures.set(`r_${suffix}`, py3(c.r));
    figures.set(`f1_${suffix}`, py3(c.f));
  };
  for (const [type, c] of Object.entries(s.perType)) put(type, c);
  put('micro', s.micro);
  return figures;
}

let scored = 0;
let stopped = 0;
let figures = 0;
let differing = 0;
const stops = new Map<string, number>();
for (const name of readdirSync(dir).sort()) {
  const caseDir = join(dir, name);
  const rc = readFileSync(join(caseDir, 'official.rc'), 'utf8').trim();
  if (rc !== '0') {
    stopped++;
    const last = readFileSync(join(caseDir, 'official.err'), 'utf8').trim().split('\n').pop() ?? '';
    stops.set(last, (stops.get(last) ?? 0) + 1);
    continue;
  }
  scored++;
  const official = new Map(
    readFileSync(join(caseDir, 'official.out'), 'utf8')
      .split('\n')
      .flatMap((l) => (/^(p|r|f1)_\S+=/.test(l) ? [l.split('=') as [string, string]] : [])),
  );
  const mine = ours(caseDir);
  const problems: string[] = [];
  for (const [k, v] of official) {
    figures++;
    if (mine.get(k) !== v) problems.push(`${k}: library ${v}, ours ${mine.get(k) ?? 'not reported'}`);
  }
  for (const k of mine.keys()) if (!official.has(k)) problems.push(`${k}: ours reports it, the library does not`);
  if (problems.length > 0) {
    differing++;
    console.log(`${name}: ${problems.join('; ')}`);
  }
}
console.log(`${scored} cases scored by both, ${figures} figures compared, ${differing} cases differ; ${stopped} the library stopped on:`);
for (const [why, n] of stops) console.log(`  ${n} × ${why}`);
process.exit(differing > 0 ? 1 : 0);
