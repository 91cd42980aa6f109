// package-lock.json in sync with package.json for the npm versions people have: `npm ci`
// (npm 11) refuses a lock that lacks an optional platform package of a dependency, and
// `npm install` on the Node version package.json names must not warn about engines.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where Node (and npm) would find `name` from the package at `from`: the nearest node_modules up the tree. */
function resolveInLock(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('lists every optional dependency of every package (the platform packages npm 11 checks)', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {}))
        if (!resolveInLock(path, name)) missing.push(`${name} (for ${path || 'the project'})`);
    }
    expect(missing).toEqual([]);
  });

  it(`holds no package whose engines exclude Node ${semver.minVersion(manifest.engines.node)?.version} (the oldest package.json allows)`, () => {
    const oldest = semver.minVersion(manifest.engines.node)!;
    const excluding = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([path, entry]) => `${path}@${entry.version} wants node ${entry.engines!.node}`);
    expect(excluding).toEqual([]);
  });

  it("`npm ci --dry-run` with this machine's npm accepts it, without an engine warning", () => {
    const dir = mkdtempSync(join(tmpdir(), 'metaserver-lock-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
      // --prefer-offline: npm's cache answers what the lock does not already say.
      const run = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain('EBADENGINE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
