// Compares, case by case, what the LitCovid track's evaluation script printed with what
// `metaserver score TOPIC` reported (topic-run.sh's outputs in the folders topic-cases.ts
// wrote): every label and average line at the script's 4 digits, the supports, and the
// instance-based figures exactly; a case the script refuses must be refused by ours too.
//
//   npx tsx scripts/differential/topic-compare.ts <cases-dir>
//
// Prints one line per difference and a summary; exits 1 when any case differs.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pythonFixed } from '../../src/scoring/topic.ts';

interface Prf {
  p: number;
  r: number;
  f: number;
  support?: number;
}

interface Metrics {
  micro: Prf;
  macro: Prf;
  weighted: Prf;
  samples: Prf;
  instance: Prf;
  perLabel: Record<string, Prf>;
  support: number;
}

const AVERAGES: Record<string, keyof Metrics> = {
  'micro avg': 'micro',
  'macro avg': 'macro',
  'weighted avg': 'weighted',
  'samples avg': 'samples',
};

function compareCase(dir: string, form: 'ours' | 'ours-list'): string[] {
  const officialRc = readFileSync(join(dir, 'official.rc'), 'utf8').trim();
  const oursRc = readFileSync(join(dir, `${form}.rc`), 'utf8').trim();
  if (officialRc !== '0' || oursRc !== '0') {
    if ((officialRc === '0') === (oursRc === '0')) return [];
    return [
      `${form}: the script exited ${officialRc}, ours ${oursRc} (${readFileSync(
        join(dir, officialRc === '0' ? `${form}.err` : 'official.err'),
        'utf8',
      )
        .trim()
        .split('\n')
        .pop()})`,
    ];
  }
  const ours = (JSON.parse(readFileSync(join(dir, `${form}.json`), 'utf8')) as { runs: Array<{ metrics: Metrics }> }).runs[0].metrics;
  const differences: string[] = [];
  const check = (what: string, official: string, mine: string) => {
    if (official !== mine) differences.push(`${form}: ${what}: script ${official}, ours ${mine}`);
  };
  const lines = readFileSync(join(dir, 'official.out'), 'utf8').split('\n');
  let labelLines = 0;
  for (const line of lines) {
    const row = /^\s*(.+?)\s+(\d+\.\d{4})\s+(\d+\.\d{4})\s+(\d+\.\d{4})\s+(\d+)$/.exec(line);
    if (row) {
      const [, name, p, r, f, support] = row;
      const average = AVERAGES[name];
      const mine = average ? (ours[average] as Prf) : ours.perLabel[name];
      if (!mine) {
        differences.push(`${form}: the script has a line "${name}" that ours lacks`);
        continue;
      }
      if (!average) labelLines++;
      check(`${name} P`, p, pythonFixed(mine.p, 4));
      check(`${name} R`, r, pythonFixed(mine.r, 4));
      check(`${name} F1`, f, pythonFixed(mine.f, 4));
      check(`${name} support`, support, String(average ? ours.support : mine.support));
      continue;
    }
    const instance = /^(mean precision|mean recall|f1) (\S+)$/.exec(line);
    if (instance) {
      const figure = instance[1] === 'mean precision' ? 'p' : instance[1] === 'mean recall' ? 'r' : 'f';
      const official = instance[2] === 'nan' ? NaN : Number(instance[2]);
      const mine = ours.instance[figure];
      // The script's nan (P + R = 0) is reported as 0 (src/scoring/README.md).
      if (!(official === mine || (Number.isNaN(official) && mine === 0)))
        differences.push(`${form}: instance ${figure}: script ${instance[2]}, ours ${mine}`);
    }
  }
  if (labelLines !== Object.keys(ours.perLabel).length)
    differences.push(`${form}: the script printed ${labelLines} label lines, ours has ${Object.keys(ours.perLabel).length}`);
  return differences;
}

function main(): void {
  const root = process.argv[2];
  if (!root) {
    process.stderr.write('usage: topic-compare.ts <cases-dir>\n');
    process.exit(2);
  }
  const cases = readdirSync(root)
    .filter((n) => existsSync(join(root, n, 'ours-list.rc')))
    .sort((a, b) => Number(a) - Number(b));
  let differing = 0;
  let refused = 0;
  for (const name of cases) {
    const dir = join(root, name);
    if (readFileSync(join(dir, 'official.rc'), 'utf8').trim() !== '0') refused++;
    const differences = [...compareCase(dir, 'ours'), ...compareCase(dir, 'ours-list')];
    if (differences.length > 0) differing++;
    for (const d of differences) process.stdout.write(`case ${name}: ${d}\n`);
  }
  process.stdout.write(`${cases.length} cases compared (${refused} refused by the script), ${differing} with differences\n`);
  process.exit(differing > 0 ? 1 : 0);
}

main();
