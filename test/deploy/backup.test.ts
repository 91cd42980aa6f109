// Backups mid-challenge: answers stored, one call in flight, articles still queued. The
// backup is taken while the meta-server serves — PGlite's by the serving process itself
// (`metaserver backup --from URL`, i.e. POST /api/admin/backup), PostgreSQL's by pg_dump
// (`metaserver backup --out FILE`) — and restored with `metaserver restore FILE` into a fresh
// installation (an empty data directory, a fresh database) with a fresh Redis. There the
// unsettled work is dispatched exactly once, and the leaderboard comes out as the original's.
// A restore is a new installation (another id, so another Redis key prefix): a copy
// restored beside its running original on the same Redis takes none of the original's jobs,
// and each answers its own articles exactly once.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/database.ts';
import { gatedServer } from '../support/gated-server.ts';
import { SettingsRepository } from '../../src/db/settings-repository.ts';
import { installationPrefix } from '../../src/queue/prefix.ts';
import { newInstallationId, seedDataDir } from '../support/pglite-template.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import {
  ADMIN_TOKEN,
  openTestDatabase,
  startTestMetaserver,
  testDatabaseKinds,
  waitFor,
  type TestDatabase,
  type TestMetaserver,
} from '../support/runtime.ts';
import { installationEnv, runCli } from './cli-process.ts';

const ARTICLES = Array.from({ length: 6 }, (_, i) => ({
  id: `b${i}`,
  text: `Backup ${i}: BRCA1 P38398 binds TP53 P04637${i % 2 ? ' and SNCA P37840' : ''}.`,
}));
const GOLD = ARTICLES.map((a, i) => `${a.id}\tP38398\n${a.id}\t${i % 3 ? 'P04637' : 'P99999'}\n`).join('');

describe.each(testDatabaseKinds())('backup and restore (%s)', (kind) => {
  const dirs: string[] = [];
  const redises: PrivateRedis[] = [];
  const stops: Array<() => Promise<void>> = [];
  let holding = true;
  let gate: Awaited<ReturnType<typeof gatedServer>>;

  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'metaserver-backup-'));
    dirs.push(d);
    return d;
  };
  const freshRedis = async () => {
    const r = await startPrivateRedis();
    redises.push(r);
    return r;
  };
  // queuePrefix '' is the default: the Redis prefix comes from the database's installation id.
  const start = async (database: TestDatabase, redis: PrivateRedis) => {
    const ms = await startTestMetaserver({ database, config: { redisUrl: redis.url, queuePrefix: '', reconcileIntervalMs: 200 } });
    stops.push(() => ms.stop());
    return ms;
  };
  const done = (ms: TestMetaserver, serverId: number, n: number) =>
    waitFor(
      `${n} articles answered`,
      async () =>
        (await ms.request('GET', `/api/servers/${serverId}`, undefined, ADMIN_TOKEN)).body.progress.done === n ? true : undefined,
      60_000,
    );
  const scores = async (ms: TestMetaserver) => {
    const res = await ms.request('GET', '/api/challenges/bk/scores/INT', undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    return res.body;
  };
  const installationId = (db: Database) => new SettingsRepository(db).installationId();

  /** The original installation's database. */
  const openOriginal = async (): Promise<TestDatabase> => {
    let original: TestDatabase;
    if (kind === 'pglite') {
      // A copy of the run's migrated database (test/support/pglite-template.ts): initdb skipped.
      const db = await openPglite(join(seedDataDir(tmp()), 'pg'));
      await migrate(db);
      await newInstallationId(db);
      original = { db, drop: () => db.close() };
    } else original = await openTestDatabase('postgres');
    stops.push(() => original.drop()); // after the meta-server using it has stopped
    return original;
  };

  /** The challenge, a team's server on the gate, the articles, dispatch started: the server's id. */
  const dispatching = async (a: TestMetaserver, url: string): Promise<number> => {
    await a.challenge('bk', { name: 'Backup', maxAttempts: 1 });
    const team = await a.team('Backup team');
    const serverId = (await a.server('bk', team.token, { name: 'gated', url })).id as number;
    await a.articles('bk', ARTICLES);
    const gold = await a.app!.inject({
      method: 'PUT',
      url: '/api/challenges/bk/gold/INT',
      payload: GOLD,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
    });
    expect(gold.statusCode, gold.body).toBe(200);
    await a.startServer(serverId, team.token);
    return serverId;
  };

  /** Backs the serving original up as an organiser would: the file. */
  const backUp = async (a: TestMetaserver, original: TestDatabase): Promise<string> => {
    const file = join(tmp(), kind === 'pglite' ? 'backup.tar.gz' : 'backup.dump');
    let backup;
    if (kind === 'pglite') {
      const address = await a.app!.listen({ port: 0, host: '127.0.0.1' });
      backup = await runCli(['backup', '--out', file, '--from', address], installationEnv({ METASERVER_ADMIN_TOKEN: ADMIN_TOKEN }));
    } else {
      backup = await runCli(['backup', '--out', file], installationEnv({ DATABASE_URL: original.url! }));
    }
    expect(backup.code, backup.stderr).toBe(0);
    expect(readFileSync(file).length).toBeGreaterThan(1000);
    expect(backup.stdout).toContain(`backup written to ${file}`);
    return file;
  };

  /**
   * `metaserver restore FILE` into an empty data directory or a fresh database. The copy is a
   * new installation: another id, so another Redis prefix, and the restore says both.
   */
  const restore = async (
    file: string,
    original: TestDatabase,
    env: Record<string, string> = {},
  ): Promise<{ restored: TestDatabase; cleanup: () => Promise<void>; output: string }> => {
    let restored: TestDatabase;
    let output: string;
    let cleanup = async () => {};
    if (kind === 'pglite') {
      const dirB = tmp();
      const result = await runCli(['restore', file], installationEnv({ ...env, METASERVER_DATA_DIR: dirB }));
      expect(result.code, result.stderr).toBe(0);
      output = result.stdout;
      const db = await openPglite(join(dirB, 'pg'));
      restored = { db, drop: () => db.close() };
    } else {
      const admin = original.db;
      const dbName = `r_${randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${dbName}`);
      const schema = new URL(original.url!).searchParams.get('options')!.replace('-c search_path=', '');
      const target = new URL(original.url!);
      target.pathname = `/${dbName}`;
      const result = await runCli(['restore', file], installationEnv({ ...env, DATABASE_URL: target.toString() }));
      expect(result.code, result.stderr).toBe(0);
      output = result.stdout;
      const plain = new URL(target);
      plain.search = '';
      const db: Database = await openPostgres({ url: plain.toString(), schema });
      restored = { db, drop: () => db.close() };
      cleanup = async () => void (await admin.query(`drop database ${dbName} with (force)`));
    }
    const [before, after] = [await installationId(original.db), await installationId(restored.db)];
    expect(after).not.toBe(before);
    expect(installationPrefix(after)).not.toBe(installationPrefix(before));
    expect(output).toContain(`the restored copy is a new installation: its id is ${after} (the backup's was ${before})`);
    expect(output).toContain(`prefix ${installationPrefix(after)}; the original's: ${installationPrefix(before)}`);
    expect(output).toContain(`redis-cli --scan --pattern '${installationPrefix(before)}:*'`);
    return { restored, cleanup, output };
  };

  /** Every article answered exactly once in this database, and no delivery left queued or under way. */
  const answeredOnce = async (db: Database) => {
    const answers = await db.query<{ n: number }>('select count(*)::int as n from answers group by article_id');
    expect(answers).toHaveLength(ARTICLES.length);
    expect(answers.every((r) => r.n === 1)).toBe(true);
    expect(await db.query(`select 1 from deliveries where state in ('queued', 'active')`)).toEqual([]);
  };

  beforeAll(async () => {
    // The first two articles are answered at once (and the registration's setup check);
    // the others wait until the test lets them go.
    gate = await gatedServer((_call, text) => holding && /^Backup [2-5]:/.test(text));
  });
  afterAll(async () => {
    holding = false;
    gate?.release();
    for (const stop of stops.reverse()) await stop().catch(() => {});
    for (const r of redises) await r.stop();
    await gate?.server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a backup taken while serving, restored into a fresh installation, gives the same leaderboard and dispatches the rest once', async () => {
    const original = await openOriginal();
    const a = await start(original, await freshRedis());
    const serverId = await dispatching(a, gate.server.url);
    await done(a, serverId, 2);
    await waitFor('a call in flight', async () => (gate.held === 1 ? true : undefined));

    // Mid-challenge: 2 answers stored, 1 call in flight, 3 articles queued. Back it up.
    const file = await backUp(a, original);

    // The original finishes; its leaderboard is the one to match.
    const callsBefore = gate.calls;
    holding = false;
    gate.release();
    await done(a, serverId, 6);
    const expected = await scores(a);
    expect(expected.runs).toHaveLength(1);
    const originalCalls = gate.calls - callsBefore;

    // A fresh installation restored from the backup, with a fresh Redis. Restored with a
    // queue prefix set, the organiser is warned that a copy beside its original needs another.
    const { restored, cleanup, output } = await restore(file, original, { METASERVER_QUEUE_PREFIX: 'chosen-prefix' });
    expect(output).toContain('METASERVER_QUEUE_PREFIX is set (chosen-prefix)');
    expect(output).toContain('give the copy another METASERVER_QUEUE_PREFIX');
    const callsAtRestore = gate.calls;
    const b = await start(restored, await freshRedis());
    await done(b, serverId, 6);
    // Exactly once: the restored installation sent the 4 unsettled articles (the one in flight and the 3 queued), once each.
    await waitFor('no further calls', async () => (gate.calls - callsAtRestore === 4 ? true : undefined));
    expect(originalCalls).toBe(3); // the original: the 3 queued after the one in flight
    await answeredOnce(restored.db);
    expect(await scores(b)).toEqual(expected);
    await b.stop();
    stops.pop();
    await restored.drop();
    await cleanup();
  }, 240_000);

  it("a copy restored beside its running original, on the same Redis, takes none of the original's jobs", async () => {
    // A gate of this test's own: the original's first two articles are answered, the third
    // is held in flight and the rest wait in its queue, until both installations run.
    let besideHolding = true;
    const beside = await gatedServer((_call, text) => besideHolding && /^Backup [2-5]:/.test(text));
    stops.push(async () => {
      besideHolding = false; // a failed run leaves calls held: let them go so everything stops
      beside.release();
      await beside.server.close();
    });
    const redis = await freshRedis();
    const original = await openOriginal();
    const a = await start(original, redis);
    const serverId = await dispatching(a, beside.server.url);
    await done(a, serverId, 2);
    await waitFor('a call in flight', async () => (beside.held === 1 ? true : undefined));
    const file = await backUp(a, original);
    const callsAtBackup = beside.calls;

    const { restored, cleanup } = await restore(file, original);
    stops.push(cleanup, () => restored.drop()); // run in reverse: the copy's handle closed before its database is dropped
    const b = await start(restored, redis);
    expect(b.ctx.config.queuePrefix).toBe(installationPrefix(await installationId(restored.db)));
    expect(b.ctx.config.queuePrefix).not.toBe(a.ctx.config.queuePrefix);
    // The copy's database holds the call in flight as under way and 3 articles queued, with
    // no job under its new prefix: its reconciler's first (full) pass queues them again there
    // (restoreJobs, and the window sent back to the start), so the copy calls the held
    // article itself rather than finding the original's job.
    await waitFor("the copy's own call in flight", async () => (beside.held === 2 ? true : undefined));

    besideHolding = false;
    beside.release();
    await done(a, serverId, ARTICLES.length);
    await done(b, serverId, ARTICLES.length);
    // The original's 3 still queued, and the copy's 4 unsettled (the call in flight, the 3 queued): none twice.
    await waitFor('every call made', async () => (beside.calls - callsAtBackup === 7 ? true : undefined));
    await answeredOnce(original.db);
    await answeredOnce(restored.db);
  }, 240_000);
});

describe('POST /api/admin/backup', () => {
  let ms: TestMetaserver;
  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
  });
  afterAll(async () => {
    await ms?.stop();
  });

  it("is the organiser's; a PGlite installation answers its dump, a PostgreSQL one says to use pg_dump", async () => {
    const team = await ms.team('Curious');
    expect((await ms.request('POST', '/api/admin/backup')).status).toBe(401);
    expect((await ms.request('POST', '/api/admin/backup', undefined, team.token)).status).toBe(403);
    const res = await ms.app!.inject({ method: 'POST', url: '/api/admin/backup', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    if (ms.db.kind === 'pglite') {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      expect(res.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } else {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('metaserver backup --out FILE');
    }
  });
});

describe('backup and restore refusals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-backup-refusals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('name a missing pg_dump, and a backup file of the other kind, and leave no file behind', async () => {
    const out = join(dir, 'never.dump');
    // A PATH without PostgreSQL's programs (node itself is started by its full path).
    const noTools = installationEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PATH: join(dir, 'empty-path') });
    const missing = await runCli(['backup', '--out', out], noTools);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("metaserver: pg_dump was not found: install PostgreSQL's client programs");
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);

    const pgliteDump = join(dir, 'pglite.tar.gz');
    writeFileSync(pgliteDump, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]));
    const wrongKind = await runCli(['restore', pgliteDump], noTools);
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain(
      `metaserver: ${pgliteDump} is a PGlite backup; unset DATABASE_URL to restore it into METASERVER_DATA_DIR`,
    );
  }, 120_000);
});
