// Starts one private redis-server on a free loopback port for the whole test run, so the
// tests never touch a Redis someone else uses. Each test file still gets its own queue
// prefix, so files running side by side do not see each other's jobs.
// Also made once for the whole run, side by side with that Redis, before any test starts (a
// few seconds: the files that gain most are the slowest, which vitest starts first):
// - the bundle `metaserver` runs from (scripts/bundle.mjs), so that the tests starting the
//   command as a process (deploy, cli, workers, agents) start it as an installation does,
//   without compiling the sources through tsx each time;
// - a migrated PGlite database the tests start from (test/support/pglite-template.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
// @ts-expect-error -- a plain JavaScript module of the build (no type declarations)
import { ensureBundle } from '../../scripts/bundle.mjs';
import { pgliteTemplatePaths } from './make-pglite-template.ts';
import { startPrivateRedis, type PrivateRedis } from './private-redis.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

let redis: PrivateRedis | undefined;
let templateRoot: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  templateRoot = mkdtempSync(join(tmpdir(), 'metaserver-pglite-template-'));
  project.provide('pgliteTemplate', pgliteTemplatePaths(templateRoot));
  // A failure of either fails no test (each then makes its own database, or the command
  // compiles the sources through tsx) but is said, for whoever wonders why the run is slow.
  [redis] = await Promise.all([
    startPrivateRedis(),
    makeTemplate(templateRoot).catch((err: unknown) =>
      console.error(`test setup: the migrated PGlite template was not made (${String(err)}); tests start from empty databases`),
    ),
    (ensureBundle as () => Promise<void>)().catch((err: unknown) =>
      console.error(`test setup: the bundle was not built (${String(err)}); commands run through tsx`),
    ),
  ]);
  project.provide('redisUrl', redis.url);
}

/** test/support/make-pglite-template.ts in a process of its own: this one keeps no PGlite (and its memory) for the whole run. */
function makeTemplate(root: string): Promise<void> {
  const script = fileURLToPath(new URL('make-pglite-template.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, root], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${stderr.trim()}`))));
  });
}

export async function teardown(): Promise<void> {
  await redis?.stop();
  if (templateRoot) rmSync(templateRoot, { recursive: true, force: true });
}
