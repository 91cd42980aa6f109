// Migration 006 on a database with servers already registered: each keeps the run name it
// was published under (T<team>_S<n>, n counting the team's servers of the challenge by id,
// as names were computed before), and the next server registered continues the count.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/pglite.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'db', 'migrations');

describe('migration 006 on registered servers', () => {
  it('keeps the run names already published and counts on from them', async () => {
    const db = await openPglite();
    for (const f of readdirSync(DIR)
      .filter((f) => f.endsWith('.sql') && f < '006')
      .sort())
      await db.exec(readFileSync(join(DIR, f), 'utf8'));
    await db.exec(`
      insert into challenges (slug, name, tasks) values ('c', 'c', '{INT}'), ('d', 'd', '{INT}');
      insert into teams (name, contact, token_hash) values ('t1', 'x', 'h1'), ('t2', 'x', 'h2');
      insert into servers (challenge_id, team_id, name, url, tasks, method) values
        (1, 1, 'a', 'u', '{INT}', 'm'), (1, 2, 'b', 'u', '{INT}', 'm'), (1, 1, 'c', 'u', '{INT}', 'm'), (2, 1, 'd', 'u', '{INT}', 'm'), (1, 1, 'e', 'u', '{INT}', 'm');
      delete from servers where name = 'c';`);
    // Before: e was published as T1_S2 (c, deleted, no longer counted).
    await db.exec(readFileSync(join(DIR, '006_installation_phases_runs.sql'), 'utf8'));
    expect(await db.query('select name, run_n from servers order by id')).toEqual([
      { name: 'a', run_n: 1 },
      { name: 'b', run_n: 1 },
      { name: 'd', run_n: 1 },
      { name: 'e', run_n: 2 },
    ]);
    await db.exec(`insert into servers (challenge_id, team_id, name, url, tasks, method) values (1, 1, 'f', 'u', '{INT}', 'm')`);
    expect(await db.query(`select run_n from servers where name = 'f'`)).toEqual([{ run_n: 3 }]);
    expect((await db.query<{ value: string }>(`select value from settings where key = 'installation_id'`))[0].value).toMatch(
      /^[0-9a-f]{32}$/,
    );
    await db.close();
  });
});
