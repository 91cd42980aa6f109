// PGlite's disk filling up mid-dispatch: measured, a write that meets the full disk while
// PGlite starts its next 16 MB WAL segment hangs the process for good (src/db/disk-reserve.ts),
// so the meta-server refuses writes below a reserve before PGlite gets there. This fills a
// small tmpfs under the data directory and frees it again: writes answer 507
// database_disk_full, reads and /healthz ("disk full") go on answering within a bound, and
// once the file is gone every pair is answered exactly once — no process restarted.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { newInstallationId, pgliteTemplateDump } from '../support/pglite-template.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { expectEveryPairAnsweredOnce } from '../support/every-pair-once.ts';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from '../support/tmpfs.ts';

const MB = 1024 * 1024;
const ARTICLES = 100;
const SERVERS = 2;
/** The reserve the data directory keeps; the filler leaves less than it free, but more than a WAL segment. */
const RESERVE_MB = 40;
const LEFT_FREE_MB = 24;
/** No request may take longer than this while the disk is full: the hang this guards against never answers. */
const ANSWER_WITHIN_MS = 5_000;
/** Writes the full disk must have refused before it is freed: several rounds of the jobs in the windows. */
const REFUSALS = 10;

const unavailable = tmpfsUnavailable();

describe.skipIf(unavailable !== null)(
  `PGlite on a disk that fills up and is freed${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let fs: Tmpfs;
    let ms: TestMetaserver;
    let sample: SampleServer;
    const lines: Array<{ level: number; msg: string }> = [];

    beforeAll(async () => {
      fs = mountTmpfs(160);
      const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const template = pgliteTemplateDump();
      const db = await openPglite(join(fs.dir, 'pg'), { log, diskReserveMb: RESERVE_MB, ...(template ? { loadDataDir: template } : {}) });
      await migrate(db);
      if (template) await newInstallationId(db);
      sample = await startSampleServer({ port: 0 });
      // A small window and a short reconciliation interval, as in database-read-only.test.ts:
      // most pairs wait in the database, and the reconciler's next pass comes within the test.
      ms = await startTestMetaserver({
        database: { db, drop: () => db.close() },
        config: { dispatchWindow: 4, reconcileIntervalMs: 500 },
      });
    }, 60_000);
    afterAll(async () => {
      await ms?.stop();
      await ms?.database.drop();
      await sample?.close();
      fs?.unmount();
    });

    /** A request that must answer within ANSWER_WITHIN_MS (a hung PGlite never would). */
    const answered = async (method: string, url: string, body?: unknown, token = ADMIN_TOKEN) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${method} ${url} did not answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
      });
      try {
        return await Promise.race([ms.request(method, url, body, token), late]);
      } finally {
        clearTimeout(timer);
      }
    };

    it('refuses writes with database_disk_full, says so on /healthz, and answers every pair once when space returns', async () => {
      await ms.challenge('df', { name: 'Disk full', maxAttempts: 2, retryDelaySeconds: 1 });
      await ms.articles(
        'df',
        Array.from({ length: ARTICLES }, (_, i) => ({ id: `DF${i}`, text: `BRCA1 (P38398) binds TP53, article ${i}.` })),
      );
      const token = (await ms.team('Disk full team')).token;
      const ids: number[] = [];
      for (let s = 0; s < SERVERS; s++) ids.push((await ms.server('df', token, { name: `s${s}`, url: sample.url, concurrency: 1 })).id);
      const answers = async () => Number((await ms.db.query<{ n: string }>('select count(*) as n from answers'))[0].n);
      for (const id of ids) await ms.startServer(id, token);
      await waitFor('dispatch under way', async () => ((await answers()) >= 10 ? true : undefined));

      const filler = join(fs.dir, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, fs.freeBytes() - LEFT_FREE_MB * MB)));
      expect(fs.freeBytes()).toBeLessThan(RESERVE_MB * MB);
      expect(await answers()).toBeLessThan(ARTICLES * SERVERS); // the disk filled mid-dispatch

      const health = await waitFor('/healthz saying the disk is full', async () => {
        const res = await answered('GET', '/healthz');
        return res.body.database === 'disk full' ? res : undefined;
      });
      // Reads go on: a load balancer keeps the one process of a PGlite installation.
      expect(health.status).toBe(200);
      expect(health.body.status).toBe('degraded');
      const write = await answered('POST', '/api/challenges/df/articles', { articles: [{ id: 'DFX', text: 'one more article' }] });
      expect(write.status).toBe(507);
      expect(write.body.error.code).toBe('database_disk_full');
      const read = await answered('GET', `/api/servers/${ids[0]}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      const warnings = lines.filter((l) => l.level === 40 && /disk full/.test(l.msg));
      expect(warnings).toHaveLength(1);
      const diskFullSeries = async () => {
        const res = await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        return /^metaserver_database_disk_full (\d)$/m.exec(res.body)?.[1];
      };
      expect(await diskFullSeries()).toBe('1');
      // A second PGlite is not started on the full disk (starting writes, and could hang there).
      await expect(openPglite(join(fs.dir, 'second'), { diskReserveMb: RESERVE_MB })).rejects.toThrow(
        /^PGlite in .*second was not started: its disk has \d+ MB free, less than the \d+ MB kept in reserve/,
      );
      // Dispatch meets the refusal too and is not stopped by it: its writes are refused (each
      // request put back, counted by the condition in debug lines), and none gets through.
      const answersWhileFull = await answers();
      await waitFor(`${REFUSALS} dispatch writes refused`, async () => {
        await answered('GET', '/healthz'); // answers within its bound all along
        return lines.filter((l) => l.level === 20 && /disk full.*still/.test(l.msg)).length >= REFUSALS ? true : undefined;
      });
      expect(await answers()).toBe(answersWhileFull);

      rmSync(filler);
      await waitFor('/healthz ok again', async () => ((await answered('GET', '/healthz')).body.database === 'ok' ? true : undefined));
      expect(await diskFullSeries()).toBe('0');
      await expectEveryPairAnsweredOnce(ms.db, ARTICLES * SERVERS, 20_000);
      expect(lines.filter((l) => l.level === 30 && /disk full.*no more/.test(l.msg))).toHaveLength(1);
    }, 60_000);
  },
);
