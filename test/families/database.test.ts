// The registry is the database's one list of task names too: migrate() writes every
// family's name into task_families, and the tables that name a task refer to it, so a task
// nobody registered is refused by the database itself, and a database made before the
// registry keeps its rows.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChallengeRepository, LIVE_SLUG } from '../../src/challenges/repository.ts';
import { migrate } from '../../src/db/migrate.ts';
import { TASK_NAMES } from '../../src/families/registry.ts';
import { openTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/runtime.ts';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));

describe.each(testDatabaseKinds())('task names in the database (%s)', (kind) => {
  let tdb: TestDatabase | undefined;
  afterEach(async () => {
    await tdb?.drop();
    tdb = undefined;
  });

  it('holds every family after migrate and refuses a task it has never heard of', async () => {
    tdb = await openTestDatabase(kind);
    const { db } = tdb;
    const names = (await db.query<{ name: string }>('select name from task_families order by name')).map((r) => r.name);
    expect(names).toEqual([...TASK_NAMES].sort());
    const [challenge] = await db.query<{ id: number }>(`insert into challenges (slug, name, tasks) values ('c', 'C', '{}') returning id`);
    await expect(
      db.query(`insert into gold_standards (challenge_id, task, body, documents, items) values ($1, 'NOPE', '', 0, 0)`, [challenge.id]),
    ).rejects.toThrow(/foreign key/);
    for (const task of TASK_NAMES) {
      await db.query('insert into gold_standards (challenge_id, task, body, documents, items) values ($1, $2, $3, 0, 0)', [
        challenge.id,
        task,
        '',
      ]);
    }
    expect((await db.query<{ n: number }>('select count(*)::int as n from gold_standards'))[0].n).toBe(TASK_NAMES.length);
    // migrate() again (every start does) changes nothing.
    expect(await migrate(db)).toEqual([]);
  });

  it('keeps the rows of a database migrated before the registry', async () => {
    tdb = await openTestDatabase(kind);
    const { db } = tdb;
    // Back to the schema of migration 005, with an offline run and a gold standard stored then.
    await db.exec('drop table task_families cascade');
    await db.exec(
      `alter table gold_standards add constraint gold_standards_task_check check (task in ('ACT', 'INT', 'IPT', 'MENTION', 'COREF'))`,
    );
    await db.exec(
      `alter table offline_runs add constraint offline_runs_task_check check (task in ('ACT', 'INT', 'IPT', 'MENTION', 'COREF'))`,
    );
    await db.exec(`alter table ensemble_models add constraint ensemble_models_task_check check (task in ('INT', 'IPT'))`);
    await db.query(`delete from schema_migrations where name = '008_task_families.sql'`);
    const [challenge] = await db.query<{ id: number }>(
      `insert into challenges (slug, name, tasks) values ('old', 'Old', '{INT}') returning id`,
    );
    const [team] = await db.query<{ id: number }>(
      `insert into teams (name, contact, token_hash) values ('t', 't@example.org', 'h') returning id`,
    );
    await db.query(`insert into gold_standards (challenge_id, task, body, documents, items) values ($1, 'INT', 'd\tP12345\n', 1, 1)`, [
      challenge.id,
    ]);
    await db.query(`insert into offline_runs (challenge_id, team_id, task, n, name, body) values ($1, $2, 'MENTION', 1, 'T1_R1', '{}')`, [
      challenge.id,
      team.id,
    ]);
    expect(readdirSync(MIGRATIONS)).toContain('008_task_families.sql');
    expect(readFileSync(`${MIGRATIONS}008_task_families.sql`, 'utf8')).toMatch(/drop constraint gold_standards_task_check/);

    expect(await migrate(db)).toEqual(['008_task_families.sql']);
    expect((await db.query<{ task: string }>('select task from gold_standards')).map((r) => r.task)).toEqual(['INT']);
    expect((await db.query<{ task: string }>('select task from offline_runs')).map((r) => r.task)).toEqual(['MENTION']);
    await expect(db.query(`update offline_runs set task = 'NOPE'`)).rejects.toThrow(/foreign key/);
  });

  it('gives the live challenge every family, also one registered after it was made', async () => {
    tdb = await openTestDatabase(kind);
    const { db } = tdb;
    const first = TASK_NAMES[0];
    await db.query(`insert into challenges (slug, name, tasks) values ($1, 'Live', $2)`, [LIVE_SLUG, [first]]);
    const live = await new ChallengeRepository(db).ensureLive();
    expect(live.tasks).toEqual([first, ...TASK_NAMES.filter((t) => t !== first)]);
    expect((await new ChallengeRepository(db).ensureLive()).tasks).toEqual(live.tasks);
  });
});
