// Applies src/db/migrations/*.sql in name order, each once, each in its own transaction,
// then writes the task families' names into `task_families` (migration 008), so the
// registry (through its leaf, src/tasks/names.ts) stays the one list of task names. The same files serve PGlite and PostgreSQL.
//
// API and worker processes may start together on a fresh database (compose's api and
// workers on their first start): every step — creating `schema_migrations` too — runs in a
// transaction that first takes the one migration lock, so one process migrates and the
// others wait, then find the work done. Outside the lock, two `create table if not exists`
// race in PostgreSQL's catalogue (a duplicate key in pg_type_typname_nsp_index).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASK_NAMES } from '../tasks/names.ts';
import type { Database, Queryable } from './database.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK = 72260001;

/** fn in a transaction holding the migration lock (released at commit or rollback). */
async function underLock<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return await db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    return await fn(tx);
  });
}

export async function migrate(db: Database): Promise<string[]> {
  const done = await underLock(db, async (tx) => {
    await tx.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
    return new Set((await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
  });
  const applied: string[] = [];
  for (const name of readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
    const ran = await underLock(db, async (tx) => {
      // Another process may have applied it while this one waited for the lock.
      const already = await tx.query('select 1 from schema_migrations where name = $1', [name]);
      if (already.length > 0) return false;
      await tx.exec(sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  await underLock(db, (tx) => tx.query('insert into task_families (name) select unnest($1::text[]) on conflict do nothing', [TASK_NAMES]));
  return applied;
}
