// Redis down makes every queue worker of a process report each reconnection. With the
// process's outage given, the log says it once when it starts and once when it is over,
// however many workers there are and however long it lasts.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutages } from '../../src/dispatch/outages.ts';
import { createQueueWorker } from '../../src/queue/worker.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { waitFor } from '../support/runtime.ts';

const until = (what: string, ok: () => boolean) => waitFor(what, async () => (ok() ? true : undefined), 15_000);

const WORKERS = 4;

describe('queue workers during a Redis outage', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('log one warning while Redis is down and one summary once a worker answers again', async () => {
    const lines: Array<{ level: number; msg: string; repeats?: number }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const outages = createOutages(log);
    const prefix = `outage-log-${process.pid}`;
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    connection.on('error', () => {});
    const done: string[] = [];
    const workers = Array.from({ length: WORKERS }, (_, i) =>
      createQueueWorker<{ n: number }>({
        queue: `q${i}`,
        process: async (job) => void done.push(`${i}:${job.data.n}`),
        connection,
        prefix,
        concurrency: 1,
        lockDurationMs: 5_000,
        stalledIntervalMs: 5_000,
        log,
        problem: 'queue worker problem',
        logFields: { worker: i },
        outage: outages.queueWorkers,
      }),
    );
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    try {
      await redis.halt();
      // Every worker meets the outage, several times each.
      await until('the workers to report the outage', () => outages.queueWorkers.occurrences >= 3 * WORKERS);
      const warnings = lines.filter((l) => l.level === 40);
      expect(warnings.map((l) => l.msg)).toEqual([
        expect.stringMatching(/^Redis unreachable for this process's queue workers since .*: each worker reconnects by itself/),
      ]);

      await redis.restart();
      const queue = new Queue<{ n: number }>('q0', { connection: new Redis(redis.url, { maxRetriesPerRequest: null }), prefix });
      await queue.add('job', { n: 1 });
      await until('the job to run after Redis came back', () => done.includes('0:1'));
      await until('the summary', () => lines.some((l) => l.level === 30));
      const summary = lines.filter((l) => l.level === 30);
      expect(summary).toHaveLength(1);
      expect(summary[0].msg).toMatch(
        /^Redis unreachable for this process's queue workers no more: it lasted [\d.]+ s; \d+ worker connection errors meanwhile$/,
      );
      expect(summary[0].repeats).toBeGreaterThanOrEqual(3 * WORKERS);
      // Still one warning in all: nothing met after it was over started a second spell.
      expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
      await queue.close();
      await queue.disconnect();
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      connection.disconnect();
    }
  }, 40_000);
});
