// Start-up time: `npm start` (dependencies installed, data directory existing) until
// /healthz answers 200, next to floors measured in the same run: a bare Node start, and
// opening the same PGlite data directory in a fresh process (the embedded database's own
// start, which the meta-server cannot skip).
//   node --import tsx bench/startup.ts [runs=5]
// Uses REDIS_URL (default the local 127.0.0.1:6379) and a data directory of its own.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/queue/redis-launcher.ts';
import { fmt, machine, pct } from './support/harness.ts';

const RUNS = Number(process.argv[2] ?? 5);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(join(tmpdir(), 'metaserver-startup-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Starts the command, polls /healthz every 10 ms; ms until 200. Stops the process after. */
async function timeToHealthy(cmd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      METASERVER_DATA_DIR: dataDir,
      METASERVER_ADMIN_TOKEN: 'startup-bench-token-0123456789',
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      METASERVER_QUEUE_PREFIX: `startup${port}`,
      DATABASE_URL: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: npm's child is stopped with it
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited before it was healthy: ${stderr}`);
      if (performance.now() - t0 > 60_000) throw new Error('not healthy within 60 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

function timeOf(args: string[]): number {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed`);
  return performance.now() - t0;
}

console.log(machine());
// The first start creates the data directory (initdb, migrations) and the bundle; not measured.
await timeToHealthy(process.execPath, ['scripts/bootstrap.mjs', 'serve']);

const rows: Array<[string, number[]]> = [
  ['floor: node -e ""', []],
  ['floor: open the PGlite data directory', []],
  ['node bin/metaserver.js serve (sources, tsx)', []],
  ['node bin/metaserver.js serve (bundle)', []],
  ['npm start', []],
];
const pgliteOpen = `import('@electric-sql/pglite').then(async ({ PGlite }) => { const db = await PGlite.create({ dataDir: ${JSON.stringify(join(dataDir, 'pg'))} }); await db.query('select 1'); await db.close(); })`;
for (let i = 0; i < RUNS; i++) {
  rows[0][1].push(timeOf(['-e', '']));
  rows[1][1].push(timeOf(['-e', pgliteOpen]));
  rows[2][1].push(await timeToHealthy(process.execPath, ['bin/metaserver.js', 'serve'], { METASERVER_NO_BUNDLE: '1' }));
  rows[3][1].push(await timeToHealthy(process.execPath, ['bin/metaserver.js', 'serve']));
  rows[4][1].push(await timeToHealthy(npm, ['start', '--silent']));
}
const floor = pct(rows[1][1], 50);
for (const [name, ms] of rows) {
  console.log(
    `${name.padEnd(40)} median ${fmt(pct(ms, 50) / 1000)} s  (min ${fmt(Math.min(...ms) / 1000)} s, max ${fmt(Math.max(...ms) / 1000)} s)  ×${fmt(pct(ms, 50) / floor)} of the PGlite open`,
  );
}
rmSync(dataDir, { recursive: true, force: true });
