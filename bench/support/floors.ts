// The floors the dispatch benchmarks compare with, measured in the same run on the same
// machine: direct XML-RPC calls to the instant server (one at a time, and at a given
// concurrency), and BullMQ alone moving no-op jobs.
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { callXmlRpc, createServerAgent } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import type { Database } from '../../src/db/database.ts';
import { articleText, pct } from './harness.ts';

export interface CallFloor {
  perSecond: number;
  p50: number;
  p99: number;
  /** Calls per CPU-second of this process (which also runs the instant server). */
  perCpuSecond: number;
}

/** Call bodies for `n` distinct articles, encoded once (as dispatch does). */
export function callBodies(n: number, bytes?: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.from(encodeMethodCall('Annotator.getAnnotation', [articleText(i, bytes)])));
}

/** `calls` direct calls to url, `concurrency` at a time (one keep-alive agent, a connection per slot). */
export async function directCalls(url: string, bodies: Buffer[], calls: number, concurrency: number): Promise<CallFloor> {
  const agent = createServerAgent({ connections: concurrency });
  const ms: number[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < calls) {
      const i = next++;
      const t0 = performance.now();
      const out = await callXmlRpc({ url, body: bodies[i % bodies.length], deadlineMs: 30_000, maxResponseBytes: 1 << 24 }, agent);
      if (!out.ok) throw new Error(`direct call failed: ${out.detail}`);
      ms.push(performance.now() - t0);
    }
  };
  // Warm the connections and the JIT first.
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      await callXmlRpc({ url, body: bodies[0], deadlineMs: 30_000, maxResponseBytes: 1 << 24 }, agent);
    }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await agent.close();
  return { perSecond: calls / elapsed, p50: pct(ms, 50), p99: pct(ms, 99), perCpuSecond: calls / ((cpu.user + cpu.system) / 1e6) };
}

export interface RoundTrips {
  /** p50 ms of a Redis PING. */
  redis: number;
  /** p50 ms of `select 1` through the bench's database (a network round trip for PostgreSQL, WASM for PGlite). */
  database: number;
}

/**
 * The smallest thing a durable dispatch adds: the queue hands a job over and takes it back
 * (Redis) and the attempt's start and its answer are committed (the database), each at
 * least one round trip to another process on the same machine — where the floor's call to
 * an in-process server crosses none.
 */
export async function roundTrips(redisUrl: string, db: Database, n = 500): Promise<RoundTrips> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 20; i++) await fn();
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await fn();
      ms.push(performance.now() - t0);
    }
    return pct(ms, 50);
  };
  const result = { redis: await time(() => redis.ping()), database: await time(() => db.query('select 1')) };
  redis.disconnect();
  return result;
}

/** BullMQ alone: `jobs` no-op jobs through one queue at `concurrency`; jobs per second. */
export async function bullmqFloor(redisUrl: string, prefix: string, jobs: number, concurrency: number): Promise<number> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('floor', { connection, prefix });
  for (let i = 0; i < jobs; i += 1000) {
    await queue.addBulk(
      Array.from({ length: Math.min(1000, jobs - i) }, (_, j) => ({ name: 'noop', data: { i: i + j }, opts: { removeOnComplete: true } })),
    );
  }
  let done = 0;
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  const t0 = performance.now();
  const worker = new Worker('floor', async () => {}, { connection: workerConnection, prefix, concurrency });
  worker.on('completed', () => {
    if (++done === jobs) resolveAll();
  });
  await all;
  const rate = jobs / ((performance.now() - t0) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  workerConnection.disconnect();
  return rate;
}
