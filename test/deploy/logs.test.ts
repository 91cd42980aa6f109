// Logs for people and for machines: `serve` on a terminal (a pseudo-terminal made by
// util-linux's `script`) writes readable lines, not JSON; with its output piped it writes
// one JSON object a line; LOG_FORMAT chooses either way. The start line says where it
// serves, which database and which Redis (no password).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seedDataDir } from '../support/pglite-template.ts';
import { BIN, installationEnv, startCli, type CliProcess } from './cli-process.ts';

const dirs: string[] = [];
/** Serves a failed assertion would leave running. */
const serves: CliProcess[] = [];
afterAll(async () => {
  for (const p of serves) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(serves.map((p) => p.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Each serve starts on a copy of the run's migrated PGlite database: what it logs is the
// point here, not initdb (test/deploy/data-dir-owner.test.ts starts on an empty directory).
function envFor(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'metaserver-logs-')));
  dirs.push(dir);
  return installationEnv({
    METASERVER_DATA_DIR: dir,
    REDIS_URL: inject('redisUrl'),
    METASERVER_QUEUE_PREFIX: `logs-${process.pid}-${dirs.length}`,
    ...extra,
  });
}

/** Runs `metaserver serve` under a pseudo-terminal until it has said it serves; returns all it wrote. */
async function serveOnTerminal(env: NodeJS.ProcessEnv): Promise<string> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  // Its own process group, so that stopping it stops the meta-server under it too.
  const child = spawn('script', ['-q', '-e', '-c', `${quote(process.execPath)} ${quote(BIN)} serve`, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => {
        if (out.includes('metaserver is serving on')) resolve();
      });
      void exited.then(() => reject(new Error(`serve on a terminal exited before serving: ${out}`)));
    });
    return out;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

const stripColours = (s: string) => s.replaceAll(/\x1b\[[0-9;]*m/g, '');

describe('log lines', () => {
  it('on a terminal: readable lines, and a start line naming the address, the database and the Redis', async () => {
    const env = envFor();
    const out = stripColours(await serveOnTerminal(env));
    const start = out.split(/\r?\n/).find((l) => l.includes('metaserver is serving on'))!;
    expect(start).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: metaserver is serving on http:\/\/127\.0\.0\.1:\d+ \(API docs at http:\/\/127\.0\.0\.1:\d+\/docs\); database: PGlite in \S+\/pg; Redis: redis:\/\/127\.0\.0\.1:\d+ \(REDIS_URL\)/,
    );
    expect(start).toContain(`database: PGlite in ${join(env.METASERVER_DATA_DIR!, 'pg')}`);
    expect(out).not.toMatch(/^\{"level"/m);
  }, 180_000);

  it('piped: one JSON object a line, and LOG_FORMAT=pretty gives readable lines there too', async () => {
    // Both at once: two installations of their own (data directory, queue prefix).
    const json = startCli(['serve'], envFor());
    const pretty = startCli(['serve'], envFor({ LOG_FORMAT: 'pretty' }));
    serves.push(json, pretty);
    const line = await json.waitForLine('metaserver is serving on');
    json.child.kill('SIGTERM');
    await json.exited;
    for (const l of json.lines.filter((x) => x.trim() !== '')) expect(() => JSON.parse(l), l).not.toThrow();
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      database: expect.stringMatching(/^PGlite in /),
      redis: expect.stringMatching(/\(REDIS_URL\)$/),
    });

    const prettyLine = await pretty.waitForLine('metaserver is serving on');
    pretty.child.kill('SIGTERM');
    await pretty.exited;
    expect(prettyLine).toMatch(/^\[[\d:.]+\] INFO: metaserver is serving on /);
    expect(prettyLine).not.toContain('\x1b['); // no colours where nothing shows them
  }, 180_000);

  it('a Redis password never shows in the start line', async () => {
    const { describeRedis, describeDatabase } = await import('../../src/cli/banner.ts');
    expect(describeRedis({ url: 'redis://:s3cret@redis.example:6379/2', source: 'REDIS_URL' }, { dataDir: '/d' })).toBe(
      'redis://:***@redis.example:6379/2 (REDIS_URL)',
    );
    expect(describeDatabase({ databaseUrl: 'postgres://meta:s3cret@db.example:5432/challenges', dataDir: '/d' })).toBe(
      'PostgreSQL challenges on db.example:5432',
    );
    expect(describeRedis({ url: 'redis://127.0.0.1:4321', source: 'private' }, { dataDir: '/d' })).toBe(
      'private redis-server in /d/redis (redis://127.0.0.1:4321)',
    );
  });
});
