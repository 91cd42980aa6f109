// Applies src/db/migrations/*.sql in name order, each once, each in its own transaction,
// then writes the task families' names into `task_families` (migration 008), so the
// registry stays the one list of task names. The same files serve PGlite and PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASK_NAMES } from '../families/registry.ts';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function migrate(db: Database): Promise<string[]> {
  await db.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
  const done = new Set((await db.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
  const applied: string[] = [];
  for (const name of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
    const ran = await db.transaction(async (tx) => {
      // API and worker processes may start together: one migrates, the others wait here.
      await tx.query('select pg_advisory_xact_lock(72260001)');
      const already = await tx.query('select 1 from schema_migrations where name = $1', [name]);
      if (already.length > 0) return false;
      await tx.exec(sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  await db.query('insert into task_families (name) select unnest($1::text[]) on conflict do nothing', [TASK_NAMES]);
  return applied;
}
