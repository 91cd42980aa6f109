// Migration 026 on a database with pull leases already given back: those attempts (and the
// deliveries whose last word they were), recorded as `interrupted` with the release's detail,
// become `released`; a worker's interrupted attempt and every other outcome stay as they were,
// and the outcomes' check takes `released` and still refuses an unknown one. On PGlite, and
// on PostgreSQL when DATABASE_URL is set (an installation's database is either).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'db', 'migrations');
const MIGRATION = '026_attempts_released.sql';
const GIVEN_BACK = 'the agent gave the article back (it was stopping, or its own server did not answer); offered again';
const LAPSED =
  'the agent gave the article back: it stopped renewing the lease within 30 s (it was stopped or lost its connection); offered again';
const WORKER = 'the worker processing this attempt stopped before it ended; the request was reissued';

/** An empty database of each kind, and how to drop it. */
const KINDS: Array<{ kind: string; open: () => Promise<{ db: Database; drop: () => Promise<void> }> }> = [
  { kind: 'PGlite', open: async () => ({ db: await openPglite(), drop: async () => {} }) },
  ...(process.env.DATABASE_URL
    ? [
        {
          kind: 'PostgreSQL',
          open: async () => {
            const schema = `t_${randomBytes(6).toString('hex')}`;
            const db = await openPostgres({ url: process.env.DATABASE_URL!, schema });
            return { db, drop: async () => void (await db.query(`drop schema "${schema}" cascade`)) };
          },
        },
      ]
    : []),
];

describe.each(KINDS)('migration 026 on leases given back before it ($kind)', ({ open }) => {
  it('marks the old releases released, and only them', async () => {
    const { db, drop } = await open();
    for (const f of readdirSync(DIR)
      .filter((f) => f.endsWith('.sql') && f < MIGRATION)
      .sort())
      await db.exec(readFileSync(join(DIR, f), 'utf8'));
    await db.exec(`
      insert into challenges (slug, name, tasks) values ('c', 'c', '{INT}');
      insert into teams (name, contact, token_hash) values ('t', 'x', 'h');
      insert into servers (challenge_id, team_id, name, url, tasks, method, protocol) values (1, 1, 's', '', '{INT}', 'm', 'pull');
      insert into articles (id, challenge_id, organiser_id, text, text_sha256) values
        ('00000000-0000-4000-8000-000000000001', 1, 'a1', 'x', 'h'),
        ('00000000-0000-4000-8000-000000000002', 1, 'a2', 'x', 'h'),
        ('00000000-0000-4000-8000-000000000003', 1, 'a3', 'x', 'h');
      insert into deliveries (article_id, server_id, state, attempts, last_outcome, last_detail) values
        ('00000000-0000-4000-8000-000000000001', 1, 'queued', 1, 'interrupted', '${GIVEN_BACK}'),
        ('00000000-0000-4000-8000-000000000002', 1, 'done', 3, 'ok', null),
        ('00000000-0000-4000-8000-000000000003', 1, 'queued', 1, 'interrupted', '${WORKER}');
      insert into attempts (article_id, server_id, n, ms, outcome, detail) values
        ('00000000-0000-4000-8000-000000000001', 1, 1, 10, 'interrupted', '${GIVEN_BACK}'),
        ('00000000-0000-4000-8000-000000000002', 1, 1, 10, 'interrupted', '${LAPSED}'),
        ('00000000-0000-4000-8000-000000000002', 1, 2, 10, 'timeout', 'no answer within the lease''s deadline of 60 s'),
        ('00000000-0000-4000-8000-000000000002', 1, 3, 10, 'ok', null),
        ('00000000-0000-4000-8000-000000000003', 1, 1, 10, 'interrupted', '${WORKER}');`);
    await db.exec(readFileSync(join(DIR, MIGRATION), 'utf8'));
    const attempts = await db.query<{ n: number; outcome: string }>(
      `select right(article_id::text, 1) || '.' || n as n, outcome from attempts order by article_id, n`,
    );
    expect(attempts).toEqual([
      { n: '1.1', outcome: 'released' },
      { n: '2.1', outcome: 'released' },
      { n: '2.2', outcome: 'timeout' },
      { n: '2.3', outcome: 'ok' },
      { n: '3.1', outcome: 'interrupted' },
    ]);
    expect(await db.query(`select right(article_id::text, 1) as a, last_outcome from deliveries order by article_id`)).toEqual([
      { a: '1', last_outcome: 'released' },
      { a: '2', last_outcome: 'ok' },
      { a: '3', last_outcome: 'interrupted' },
    ]);
    // The check still refuses an outcome nobody records.
    await expect(
      db.exec(`insert into attempts (article_id, server_id, n, outcome) values ('00000000-0000-4000-8000-000000000003', 1, 2, 'lost')`),
    ).rejects.toThrow(/attempts_outcome_check/);
    await drop();
    await db.close();
  });
});
