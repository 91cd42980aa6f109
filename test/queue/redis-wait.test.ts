// At start, a Redis named by REDIS_URL that does not answer yet is waited for
// (METASERVER_REDIS_WAIT_SECONDS) rather than ending the process: on a real redis-server of
// the test's own, halted before the start and started again once the launcher says it is
// waiting, the start goes on. Waiting gives up after the setting, and a refusal that waiting
// cannot cure (a wrong password) is not waited for at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, resolveRedis } from '../../src/queue/redis-launcher.ts';
import { RedisUnavailableError } from '../../src/queue/redis-errors.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { startGuardedRedis, type GuardedRedis } from '../support/guarded-redis.ts';
import { waitFor } from '../support/runtime.ts';

let redis: PrivateRedis;
let guarded: GuardedRedis;
let dataDir: string;

beforeAll(async () => {
  redis = await startPrivateRedis();
  guarded = await startGuardedRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'metaserver-redis-wait-'));
});
afterAll(async () => {
  await redis?.stop();
  await guarded?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function capturedLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { log, lines };
}

describe('waiting for Redis at start', () => {
  it('waits for a Redis that is down, says so once, and goes on when it answers', async () => {
    await redis.halt();
    const { log, lines } = capturedLog();
    const resolving = resolveRedis({ redisUrl: redis.url, dataDir, redisWaitSeconds: 120 }, log);
    await waitFor('the launcher to say it waits', async () => (lines.some((l) => l.msg.includes('waiting for it')) ? true : undefined));
    await redis.restart();
    const found = await resolving;
    expect(found).toMatchObject({ url: redis.url, source: 'REDIS_URL' });
    const waiting = lines.filter((l) => l.msg.includes('waiting for it'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0].msg).toMatch(
      /^Redis at REDIS_URL \(redis:\/\/127\.0\.0\.1:\d+\) does not answer .* — waiting for it, up to 120 s \(METASERVER_REDIS_WAIT_SECONDS\)$/,
    );
    expect(lines.at(-1)?.msg).toMatch(/^Redis answers after \d+ s of waiting$/);
  });

  it('gives up after the setting, saying how long it waited', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const { log } = capturedLog();
    const err = await resolveRedis({ redisUrl: url, dataDir, redisWaitSeconds: 1 }, log).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RedisUnavailableError);
    expect((err as Error).message).toMatch(/does not answer .*\(waited 1 s: METASERVER_REDIS_WAIT_SECONDS is 1\)$/);
  });

  it('does not wait for a refusal that waiting cannot cure', async () => {
    const { log, lines } = capturedLog();
    const started = Date.now();
    const err = await resolveRedis({ redisUrl: `redis://:wrong@127.0.0.1:${guarded.port}`, dataDir, redisWaitSeconds: 120 }, log).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/refused the credentials/);
    expect(lines.filter((l) => l.msg.includes('waiting for it'))).toEqual([]);
    // Refused at the first answer, far inside the 120 s it would have waited for a Redis that is down.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
