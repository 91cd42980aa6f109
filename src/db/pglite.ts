import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

/** Embedded PostgreSQL: a directory on disk, or memory when dir is undefined (tests). */
export async function openPglite(dir?: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir ? { dataDir: dir } : {});
  const query: Queryable['query'] = async (sql, params) => (await db.query(sql, params as unknown[])).rows as never[];
  return {
    kind: 'pglite',
    query,
    async exec(sql) {
      await db.exec(sql);
    },
    async transaction(fn) {
      return await db.transaction(async (tx) =>
        fn({
          query: async (sql, params) => (await tx.query(sql, params as unknown[])).rows as never[],
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      );
    },
    async script(sql) {
      return (await db.exec(sql)).map((r) => r.rows as Array<Record<string, unknown>>);
    },
    async close() {
      await db.close();
    },
  };
}
