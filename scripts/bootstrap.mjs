// `npm start` and `npm test` go through here: it installs the dependencies when they are
// missing or older than package-lock.json, then runs the meta-server or the test suite.
// Node built-ins only — this file runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'node_modules', '.metaserver-deps');

function lockHash() {
  const lock = join(root, 'package-lock.json');
  const manifest = join(root, 'package.json');
  const hash = createHash('sha256');
  hash.update(readFileSync(manifest));
  if (existsSync(lock)) hash.update(readFileSync(lock));
  return hash.digest('hex');
}

function ensureDependencies() {
  const wanted = lockHash();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return;
  // `npm install --no-save` follows package-lock.json without rewriting it, with npm 10 and
  // 11 alike (npm 10 would otherwise drop the `libc` fields npm 11 writes, leaving the
  // checkout dirty), and keeps what is installed where `npm ci` starts over from nothing.
  // The lock is complete for both (test/deploy/lockfile.test.ts): `npm ci` works too.
  const args = ['install', '--no-audit', '--no-fund', '--no-save'];
  console.error('metaserver: installing dependencies — first run or package-lock.json changed …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(
      'metaserver: installing dependencies failed (see npm output above). Check your network access to the npm registry and run `npm ci` by hand.',
    );
    process.exit(run.status ?? 1);
  }
  writeFileSync(stampFile, wanted);
}

/** The long-running commands. */
const SERVICES = new Set(['serve', 'api', 'worker']);

/**
 * glibc's malloc raises its mmap threshold the first time a big block is freed; from then
 * on blocks of a few MB (answers, query buffers, responses) come from its heaps, which it
 * hardly ever gives back to the system. Measured with bench/memory.ts: the resident set grew
 * ~40 MiB per 1 MiB on-demand article while the process itself kept ~2 MiB of it. A fixed
 * threshold (any MALLOC_*_ setting turns the raising off) maps each big block on its own and
 * unmaps it when freed. glibc reads it from the environment when a process starts, so a
 * service started here runs as a child with it set (unless it is set already, or the C
 * library is not glibc).
 */
function needsAllocatorSetting() {
  if (process.platform !== 'linux' || process.env.MALLOC_MMAP_THRESHOLD_ !== undefined) return false;
  return Boolean(process.report?.getReport?.().header?.glibcVersionRuntime);
}

/**
 * The child gets the signals this process gets (it has a process group of its own, so a
 * terminal's Ctrl-C reaches it once, through here), and stops as on SIGTERM if this process
 * dies, even by SIGKILL: its IPC channel closes (bin/metaserver.js). Exits with its code.
 */
function runWithAllocatorSetting(args) {
  const child = spawn(process.execPath, [join(root, 'bin', 'metaserver.js'), ...args], {
    cwd: process.cwd(),
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (osConstants.signals[signal] ?? 0)));
}

const [command = 'serve', ...rest] = process.argv.slice(2);
ensureDependencies();

if (command === 'test') {
  // Lint (type-aware, eslint.config.js) and the format check first, side by side: they fail in
  // seconds where the suite takes minutes. The code stays as Prettier writes it (.prettierrc.json).
  const eslint = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  const [lint, format] = await Promise.all([runQuietly([eslint, '.']), runQuietly([prettier, '--check', '--log-level', 'warn', '.'])]);
  // What each printed (a lint warning passes, and is still shown).
  process.stderr.write(lint.output + format.output);
  if (lint.status !== 0) console.error('metaserver: lint failed (see above); fix it, or run `npm run lint` to see it alone.');
  if (format.status !== 0) {
    console.error('metaserver: the files above are not formatted; run `npm run format` (Prettier) and commit the result.');
  }
  if (lint.status !== 0 || format.status !== 0) process.exit(lint.status || format.status || 1);
  // The suite without coverage: V8's block counting made the whole run 17% slower (504 s
  // against 432 s). `npm test -- --coverage` measures it against the floor (vitest.config.ts).
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', ...rest], { cwd: root, stdio: 'inherit' });
  process.exit(run.status ?? 1);
} else {
  // Bundling once saves transpiling every source file at each start; any failure here only
  // costs that time (bin/metaserver.js falls back to the sources).
  const { ensureBundle } = await import('./bundle.mjs');
  await ensureBundle().catch((err) => console.error(`metaserver: could not bundle the sources, running them directly (${err.message})`));
  if (SERVICES.has(command) && needsAllocatorSetting()) runWithAllocatorSetting([command, ...rest]);
  else {
    process.argv = [process.argv[0], join(root, 'bin', 'metaserver.js'), command, ...rest];
    await import('../bin/metaserver.js');
  }
}

/** Runs a node script and keeps what it printed, so two can run at once and each be shown whole. */
function runQuietly(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}
