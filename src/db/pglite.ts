// PGlite is PostgreSQL in this process: two processes opening one directory each run a
// database of their own on the same files, which diverge and lose writes. So the directory
// has one owner: a lock file beside it (`<dir>.lock`) names the process holding it, and
// every opener (serve, api, migrate, backup, restore) takes it first or is refused.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../log.ts';
import { takeLock } from '../queue/data-dir-lock.ts';
import type { Database, Queryable } from './database.ts';

/** The lock file of a PGlite data directory. */
const pgliteLockFile = (dir: string) => `${dir.replace(/\/+$/, '')}.lock`;

/** Takes the PGlite directory's lock, or throws DataDirInUseError naming its owner. Returns the release. */
function lockPgliteDir(dir: string, log?: Logger): () => void {
  mkdirSync(dirname(dir), { recursive: true });
  return takeLock(pgliteLockFile(dir), {
    what: `the PGlite database in ${dir}`,
    advice:
      'stop it first (to back up a serving installation, ask it: `metaserver backup --out FILE --from <its address>`), or give this one a data directory of its own (METASERVER_DATA_DIR) or a PostgreSQL database (DATABASE_URL)',
    log,
  });
}

/**
 * Embedded PostgreSQL: a directory on disk (locked for this process until close), or
 * memory when dir is undefined (tests).
 */
export async function openPglite(
  dir?: string,
  opts: { log?: Logger; /** A dump (dumpDataDir) to start an empty directory from: restore. */ loadDataDir?: Blob } = {},
): Promise<Database & { pglite: PGlite }> {
  const unlock = dir ? lockPgliteDir(dir, opts.log) : () => {};
  let db: PGlite;
  try {
    if (dir) mkdirSync(dir, { recursive: true });
    db = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  } catch (err) {
    unlock();
    throw err;
  }
  const query: Queryable['query'] = async (sql, params) => (await db.query(sql, params as unknown[])).rows as never[];
  return {
    kind: 'pglite',
    /** The PGlite itself, for its own dump (src/backup). */
    pglite: db,
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
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  };
}
