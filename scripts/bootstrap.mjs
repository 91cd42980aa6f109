// `npm start` and `npm test` go through here: it installs the dependencies when they are
// missing or older than package-lock.json, then runs the meta-server or the test suite.
// Node built-ins only — this file runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
  // `npm install --no-save` follows package-lock.json without rewriting it; `npm ci` is
  // stricter than we need and refuses locks whose optional platform packages a registry lacks.
  const args = ['install', '--no-audit', '--no-fund', '--no-save'];
  console.error('metaserver: installing dependencies — first run or package-lock.json changed …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error('metaserver: installing dependencies failed (see npm output above). Check your network access to the npm registry and run `npm ci` by hand.');
    process.exit(run.status ?? 1);
  }
  writeFileSync(stampFile, wanted);
}

const [command = 'serve', ...rest] = process.argv.slice(2);
ensureDependencies();

if (command === 'test') {
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', ...rest], { cwd: root, stdio: 'inherit' });
  process.exit(run.status ?? 1);
} else {
  // Bundling once saves transpiling every source file at each start; any failure here only
  // costs that time (bin/metaserver.js falls back to the sources).
  const { ensureBundle } = await import('./bundle.mjs');
  await ensureBundle().catch((err) => console.error(`metaserver: could not bundle the sources, running them directly (${err.message})`));
  process.argv = [process.argv[0], join(root, 'bin', 'metaserver.js'), command, ...rest];
  await import('../bin/metaserver.js');
}
