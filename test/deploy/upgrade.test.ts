// An installation made by the release before the installation's own Redis prefix (a PGlite
// data directory with that release's schema, test/fixtures/upgrade/, and its jobs still in
// Redis under the old `metaserver` prefix) starts on this release: the migrations run, the
// old queues' unsettled work is queued again under `metaserver-<id>`, the old keys are
// removed (another installation's queue under the old prefix, one of a server this one does not
// have, is left alone), the log says
// what moved from where, and every article is answered exactly once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { testConfig, waitFor } from '../support/runtime.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'upgrade', 'pre-006-datadir.tar.gz');
const QUEUED = [
  '00000000-0000-4000-8000-000000000003',
  '00000000-0000-4000-8000-000000000004',
  '00000000-0000-4000-8000-000000000005',
  '00000000-0000-4000-8000-000000000006',
];
const FOREIGN = '11111111-1111-4111-8111-111111111111';

describe('upgrading an installation of the release with the shared `metaserver` prefix', () => {
  let redis: PrivateRedis;
  let annotator: FaultyServer;
  let dir: string;
  let runtime: Runtime | undefined;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    annotator = await startFaultyServer({ kind: 'good' });
    dir = mkdtempSync(join(tmpdir(), 'metaserver-upgrade-'));
  });
  afterAll(async () => {
    await runtime?.close();
    await redis?.stop();
    await annotator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves the old jobs to the installation prefix, removes the old keys, and every article is answered once', async () => {
    // The old release's Redis: the four queued articles' jobs in flight under `metaserver`,
    // a finished one, and another installation's queue on the same Redis and prefix.
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    const old = new Queue('server-1', { connection: client, prefix: 'metaserver' });
    await old.addBulk(
      QUEUED.map((articleId) => ({ name: 'annotate', data: { articleId, serverId: 1 }, opts: { jobId: `${articleId}_r0`, attempts: 1 } })),
    );
    await old.pause(); // the old release's pause state must not follow the queue
    const foreign = new Queue('server-2', { connection: client, prefix: 'metaserver' });
    await foreign.add('annotate', { articleId: FOREIGN, serverId: 2 }, { jobId: `${FOREIGN}_r0` });
    const oldKeys = await client.keys('metaserver:server-1:*');
    expect(oldKeys.length).toBeGreaterThan(4);

    const db = await openPglite(join(dir, 'pg'), { loadDataDir: new Blob([readFileSync(FIXTURE)]) });
    expect((await db.query<{ name: string }>('select name from schema_migrations order by name')).map((r) => r.name).at(-1)).toBe(
      '005_dispatch_batches.sql',
    );
    // The annotation server of the fixture, now on this test's port (an organiser's PATCH would do the same).
    await db.query('update servers set url = $1', [annotator.url]);
    const applied = await migrate(db);
    expect(applied).toContain('006_installation_phases_runs.sql');

    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = testConfig({ redisUrl: redis.url, queuePrefix: '', dataDir: dir });
    runtime = await createRuntime({ config, log: pino({ level: 'info' }, sink), db, api: false, workers: true });
    const prefix = runtime.ctx.config.queuePrefix;
    expect(prefix).toMatch(/^metaserver-[0-9a-f-]{12}$/);

    await waitFor(
      'the four queued articles answered',
      async () => {
        const rows = await db.query<{ n: number }>(`select count(*)::int as n from deliveries where state = 'done'`);
        return rows[0].n === 6 ? true : undefined;
      },
      60_000,
    );
    // Exactly once: the annotator was called once for each queued article, never for the answered ones.
    const texts = annotator.calls.map((c) => String(c.params[0]));
    expect(texts.toSorted()).toEqual([
      'Upgrade 3: BRCA1 (P38398).',
      'Upgrade 4: BRCA1 (P38398).',
      'Upgrade 5: BRCA1 (P38398).',
      'Upgrade 6: BRCA1 (P38398).',
    ]);
    const answers = await db.query<{ n: number }>('select count(*)::int as n from answers group by article_id');
    expect(answers).toHaveLength(6);
    expect(answers.every((r) => r.n === 1)).toBe(true);

    // This installation's old keys are gone; the other installation's are not.
    expect(await client.keys('metaserver:server-1:*')).toEqual([]);
    expect(await client.exists(`metaserver:server-2:${FOREIGN}_r0`)).toBe(1);
    const moved = logLines.find((l) => String(l.msg).startsWith('moved the queues of the earlier release'));
    expect(moved?.msg).toBe(
      `moved the queues of the earlier release from the Redis prefix "metaserver" to "${prefix}" and removed the old keys (server-1: 4 old jobs, 0 under way queued again); the articles not begun are queued through the queue window`,
    );
    expect(logLines.some((l) => String(l.msg).includes('lost in a Redis restart'))).toBe(false);
    await old.close();
    await foreign.close();
    client.disconnect();
  }, 120_000);
});
