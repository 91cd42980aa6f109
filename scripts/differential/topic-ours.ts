// Runs `metaserver score TOPIC` on every case folder of a TOPIC differential run, in one
// process (the command's own entry point, runScoreCommand, as the command line calls it):
// the official form (gold.csv, pred.csv) into ours.json, the list forms (gold.list.csv,
// pred.list.tsv) into ours-list.json, each with its .err and .rc.
//
//   npx tsx scripts/differential/topic-ours.ts <cases-dir>

import { readFileSync, readdirSync, readdir, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { runScoreCommand } from '../../src/cli/score.ts';

async function scoreInto(dir: string, name: string, gold: string, pred: string): Promise<void> {
  let out = '';
  let err = '';
  const code = await runScoreCommand(['TOPIC', '--gold', join(dir, gold), join(dir, pred)], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readFile: async (p) => readFileSync(p, 'utf8'),
    readDir: promisify(readdir),
  });
  writeFileSync(join(dir, `${name}.json`), out);
  writeFileSync(join(dir, `${name}.err`), err);
  writeFileSync(join(dir, `${name}.rc`), `${code}\n`);
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) {
    process.stderr.write('usage: topic-ours.ts <cases-dir>\n');
    process.exit(2);
  }
  const cases = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
  for (const c of cases) {
    const dir = join(root, c.name);
    await scoreInto(dir, 'ours', 'gold.csv', 'pred.csv');
    await scoreInto(dir, 'ours-list', 'gold.list.csv', 'pred.list.tsv');
  }
  process.stdout.write(`${cases.length} cases scored\n`);
}

await main();
