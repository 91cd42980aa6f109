// Start-up of the command line: `metaserver config` and `metaserver score INT` on two tiny
// files, from the bundle (built first, as `npm start` does) and from the sources (tsx),
// next to the floor measured in the same run (`node -e ""`). With `--base DIR` (another
// checkout, its own node_modules/.cache) the same commands of that tree are timed in
// alternation with these, and the ratio printed: what a change cost the start.
//   node --import tsx bench/cli-start.ts [starts=11] [--base DIR]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { machine, pct } from './support/harness.ts';

const args = process.argv.slice(2);
const baseAt = args.indexOf('--base');
const base = baseAt >= 0 ? args.splice(baseAt, 2)[1] : undefined;
const STARTS = Number(args[0] ?? 11);
const head = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'metaserver-cli-start-'));
writeFileSync(join(work, 'gold.tsv'), 'd1\tP12345\nd2\tQ67890\n');
writeFileSync(join(work, 'run.tsv'), 'd1\tP12345\t1\t0.9\nd2\tP11111\t1\t0.5\n');

const trees: Record<string, string> = { this: head, ...(base ? { base } : {}) };
for (const dir of Object.values(trees)) {
  const built = spawnSync(process.execPath, ['-e', "import('./scripts/bundle.mjs').then((b) => b.ensureBundle())"], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`cannot build the bundle in ${dir}: ${built.stderr}`);
}
const cases: Record<string, [string[], Record<string, string>]> = {
  'config, bundle': [['config'], {}],
  'score INT, bundle': [['score', 'INT', '--gold', 'gold.tsv', 'run.tsv'], {}],
  'score INT, tsx': [['score', 'INT', '--gold', 'gold.tsv', 'run.tsv'], { METASERVER_NO_BUNDLE: '1' }],
};

function time(argv: string[], env: Record<string, string>): number {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, argv, { cwd: work, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${argv.join(' ')}: ${run.stderr}`);
  return performance.now() - t0;
}

const times = new Map<string, number[]>();
const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
for (let i = 0; i < STARTS; i++) {
  record('floor', time(['-e', ''], {}));
  for (const [name, [argv, env]] of Object.entries(cases)) {
    for (const [tree, dir] of Object.entries(trees)) record(`${name} ${tree}`, time([join(dir, 'bin', 'metaserver.js'), ...argv], env));
  }
}
rmSync(work, { recursive: true, force: true });

const median = (key: string) => pct(times.get(key)!, 50);
console.log(machine());
console.log(`${STARTS} starts each, alternating; medians; floor node -e "" ${median('floor').toFixed(0)} ms`);
for (const name of Object.keys(cases)) {
  const mine = median(`${name} this`);
  const against = base ? `, base ${median(`${name} base`).toFixed(0)} ms, ×${(mine / median(`${name} base`)).toFixed(2)}` : '';
  console.log(`${name.padEnd(18)} ${mine.toFixed(0)} ms (×${(mine / median('floor')).toFixed(2)} the floor)${against}`);
}
