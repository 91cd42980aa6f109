// `metaserver` never prints a password: `metaserver config` shows connection URLs with `***`,
// and a service refused by its Redis says why with the URL redacted, in its message and its
// log lines alike. Run as the real command, as an organiser runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_PASSWORD, startGuardedRedis, type GuardedRedis } from '../support/guarded-redis.ts';
import { installationEnv, runCli } from './cli-process.ts';

const DB_PASSWORD = 'db-pw-5517';
const WRONG_PASSWORD = 'not-the-pw-71';
let redis: GuardedRedis;
const dirs: string[] = [];

beforeAll(async () => {
  redis = await startGuardedRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-secrets-'));
  dirs.push(dir);
  return dir;
}

describe('secrets on the command line', () => {
  it('`metaserver config` shows the Redis and database URLs with *** for their passwords', async () => {
    const env = installationEnv({
      METASERVER_DATA_DIR: dataDir(),
      REDIS_URL: `rediss://metaserver:${REDIS_PASSWORD}@redis.example.org:6380/0`,
      DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.example.org:5432/meta?sslmode=require`,
    });
    const run = await runCli(['config'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('redisUrl = "rediss://metaserver:***@redis.example.org:6380/0"');
    expect(run.stdout).toContain('databaseUrl = "postgres://app:***@db.example.org:5432/meta?sslmode=require"');
    expect(run.stdout + run.stderr).not.toContain(REDIS_PASSWORD);
    expect(run.stdout + run.stderr).not.toContain(DB_PASSWORD);
  });

  it('a service whose Redis refuses the password says so, and prints the password nowhere', async () => {
    const url = `redis://default:${WRONG_PASSWORD}@127.0.0.1:${redis.port}`;
    const run = await runCli(['serve'], installationEnv({ METASERVER_DATA_DIR: dataDir(), REDIS_URL: url, LOG_FORMAT: 'json' }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Redis at REDIS_URL (redis://default:***@127.0.0.1:${redis.port}) refused the credentials`);
    expect(run.stdout + run.stderr).not.toContain(WRONG_PASSWORD);
  });
});
