// Worker pools on one Redis share the servers out: each server is consumed by
// min(pools, concurrency) of them, each taking its share of the concurrency, so the work
// spreads over the worker processes; a pool that stops gives its servers back.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, inject } from 'vitest';
import { Redis } from 'ioredis';
import { concurrencyShare, POOLS_KEY, shareOut, WorkerPool } from '../../src/dispatch/worker-pool.ts';
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

describe('shareOut', () => {
  const pools = ['pool-a', 'pool-b', 'pool-c', 'pool-d'];
  /** For each pool: its total requests at once (sum of shares). */
  const loads = (shares: Map<string, Map<number, number>>) => [...shares.values()].map((m) => [...m.values()].reduce((a, b) => a + b, 0));
  const consumers = (shares: Map<string, Map<number, number>>, serverId: number) =>
    [...shares.values()].filter((m) => m.has(serverId)).map((m) => m.get(serverId));

  it('gives a server min(pools, concurrency) consumers, each with its share, and the same answer whatever the order of the lists', () => {
    const servers = [
      { id: 7, concurrency: 5 },
      { id: 8, concurrency: 3 },
      { id: 9, concurrency: 1 },
    ];
    const shares = shareOut(servers, pools);
    expect(consumers(shares, 7)).toEqual([2, 2, 2, 2]); // four consumers of 5: 2 each (the global limit holds 5)
    expect(consumers(shares, 8)).toEqual([1, 1, 1]);
    expect(consumers(shares, 9)).toEqual([1]);
    expect(shareOut([...servers].reverse(), [...pools].reverse())).toEqual(shares);
    expect(shareOut(servers, ['alone']).get('alone')).toEqual(
      new Map([
        [7, 5],
        [8, 3],
        [9, 1],
      ]),
    );
  });

  it('spreads servers that take one request at a time evenly over the pools', () => {
    const servers = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, concurrency: 1 }));
    expect(loads(shareOut(servers, pools))).toEqual([10, 10, 10, 10]);
    const uneven = Array.from({ length: 41 }, (_, i) => ({ id: i + 1, concurrency: 1 }));
    expect(loads(shareOut(uneven, pools)).sort()).toEqual([10, 10, 10, 11]);
  });

  it('balances a mix of concurrencies to within one server of each other', () => {
    const servers = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, concurrency: [1, 2, 3, 1, 1][i % 5] }));
    const perPool = loads(shareOut(servers, pools));
    expect(perPool.reduce((a, b) => a + b, 0)).toBe(servers.reduce((a, s) => a + s.concurrency, 0));
    expect(Math.max(...perPool) - Math.min(...perPool)).toBeLessThanOrEqual(3);
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
      redisUrl: inject('redisUrl'),
      prefix,
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
      syncIntervalMs,
      log: createLogger({ logLevel: 'silent' }),
      performer: {} as JobPerformer,
      listServers: async () => [
        { id: 1, concurrency: 5 },
        { id: 2, concurrency: 1 },
      ],
    });
    pools.push(pool);
    return pool;
  };

  it('consumes every server alone, shares them out once another pool runs, and takes them all again when that one stops', async () => {
    const first = newPool();
    await first.start();
    expect(first.concurrencyOf(1)).toBe(5);
    expect(first.concurrencyOf(2)).toBe(1);
    const second = newPool();
    await second.start();
    expect(second.concurrencyOf(1)).toBe(3);
    // The second pool announced itself: the first takes its share without waiting for its next sync.
    await waitFor('the first pool at its share', async () => (first.concurrencyOf(1) === 3 ? true : undefined), 5000);
    // Server 2 takes one request at a time: one of the two pools consumes it, not both.
    await waitFor(
      'server 2 with one consumer',
      async () => ([first, second].filter((p) => p.concurrencyOf(2) === 1).length === 1 ? true : undefined),
      5000,
    );
    await second.close();
    pools.splice(pools.indexOf(second), 1);
    await waitFor(
      'the first pool alone again',
      async () => (first.concurrencyOf(1) === 5 && first.concurrencyOf(2) === 1 ? true : undefined),
      5000,
    );
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
    await waitFor(
      'every server, whole, again',
      async () => (pool.concurrencyOf(1) === 5 && pool.concurrencyOf(2) === 1 ? true : undefined),
      8000,
    );
  });
});
