// Worker pools on one Redis each take their share of a server's concurrency, so the work of
// a server spreads over the worker processes; a pool that stops gives its share back.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, inject } from 'vitest';
import { Redis } from 'ioredis';
import { concurrencyShare, POOLS_KEY, WorkerPool } from '../../src/dispatch/worker-pool.ts';
import type { JobPerformer } from '../../src/dispatch/perform.ts';
import { createLogger } from '../../src/log.ts';
import { waitFor } from '../support/runtime.ts';

describe('concurrencyShare', () => {
  it('is the concurrency over the live pools, rounded up, never below one', () => {
    expect(concurrencyShare(5, 1)).toBe(5);
    expect(concurrencyShare(5, 2)).toBe(3);
    expect(concurrencyShare(5, 4)).toBe(2);
    expect(concurrencyShare(4, 4)).toBe(1);
    expect(concurrencyShare(1, 3)).toBe(1);
    expect(concurrencyShare(5, 0)).toBe(5);
  });
});

describe('WorkerPool', () => {
  const pools: WorkerPool[] = [];
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.close()));
    pools.length = 0;
  });

  const prefix = `t${randomBytes(5).toString('hex')}`;
  const newPool = (syncIntervalMs = 200) => {
    // No job reaches it: no article is queued. The performer is never called.
    const pool = new WorkerPool({
      redisUrl: inject('redisUrl'), prefix, lockDurationMs: 2000, stalledIntervalMs: 1000, syncIntervalMs,
      log: createLogger({ logLevel: 'silent' }), performer: {} as JobPerformer,
      listServers: async () => [{ id: 1, concurrency: 5 }, { id: 2, concurrency: 1 }],
    });
    pools.push(pool);
    return pool;
  };

  it('takes the whole concurrency alone, its share once another pool runs, and the whole again when that one stops', async () => {
    const first = newPool();
    await first.start();
    expect(first.concurrencyOf(1)).toBe(5);
    expect(first.concurrencyOf(2)).toBe(1);
    const second = newPool();
    await second.start();
    expect(second.concurrencyOf(1)).toBe(3);
    // The second pool announced itself: the first takes its share without waiting for its next sync.
    await waitFor('the first pool at its share', async () => (first.concurrencyOf(1) === 3 ? true : undefined), 5000);
    expect(first.concurrencyOf(2)).toBe(1);
    await second.close();
    pools.splice(pools.indexOf(second), 1);
    await waitFor('the first pool alone again', async () => (first.concurrencyOf(1) === 5 ? true : undefined), 5000);
  });
  it('counts a pool that stopped without leaving (killed) until its heartbeat is three sync intervals old', async () => {
    const pool = newPool(1000);
    await pool.start();
    expect(pool.concurrencyOf(1)).toBe(5);
    // A heartbeat as a killed process leaves it: renewed once, never again.
    const redis = new Redis(inject('redisUrl'));
    try {
      const [seconds, micros] = await redis.time();
      await redis.zadd(`${prefix}:${POOLS_KEY}`, Number(seconds) * 1000 + Math.floor(Number(micros) / 1000), 'killed-pool');
    } finally {
      redis.disconnect();
    }
    await pool.sync();
    expect(pool.concurrencyOf(1)).toBe(3);
    // syncIntervalMs is 1000: forgotten 3 s after its last heartbeat.
    await waitFor('the whole concurrency again', async () => (pool.concurrencyOf(1) === 5 ? true : undefined), 8000);
  });
});
