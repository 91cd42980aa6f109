// PGlite is PostgreSQL in this process: two processes opening one directory each run a
// database of their own on the same files, which diverge and lose writes. So the directory
// has one owner: a lock file beside it (`<dir>.lock`) names the process holding it, and
// every opener (serve, api, migrate, backup, restore) takes it first or is refused.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../log.ts';
import { takeLock } from '../queue/data-dir-lock.ts';
import { DatabaseDiskFullError, type Database, type Queryable } from './database.ts';
import { DiskReserve } from './disk-reserve.ts';

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
/** The free space kept when none is configured: see pgliteDiskReserveMb in config.ts. */
const DEFAULT_RESERVE_MB = 64;

/**
 * Makes the session read-only while the disk is below its reserve, and back when space
 * returns (disk-reserve.ts says why), before each statement; a write refused meanwhile, or
 * one that met the full disk itself, becomes DatabaseDiskFullError.
 */
function diskGuard(db: PGlite, reserve: DiskReserve) {
  let readOnly = false;
  const before = async () => {
    const full = reserve.full();
    if (full === readOnly) return;
    readOnly = full;
    await db.exec(`set default_transaction_read_only = ${full ? 'on' : 'off'}`);
  };
  const translate = (err: unknown): unknown => {
    const code = (err as { code?: unknown }).code;
    const refused = code === '25006' && readOnly;
    if (!refused && code !== '53100' && !/No space left on device|ENOSPC/i.test(String((err as Error).message))) return err;
    if (!refused) reserve.full(true);
    reserve.refused({ err: (err as Error).message });
    const freeMb = Math.floor(reserve.freeBytes / (1024 * 1024));
    return new DatabaseDiskFullError(
      `the disk holding the database (${reserve.dir}) has ${freeMb} MB free, less than the ${reserve.reserveBytes / (1024 * 1024)} MB kept in reserve, so writes are refused; free space there or grow the volume: writes resume by themselves`,
      { cause: err },
    );
  };
  return async <T>(run: () => Promise<T>): Promise<T> => {
    await before();
    try {
      return await run();
    } catch (err) {
      throw translate(err);
    }
  };
}

function startRefused(reserve: DiskReserve): DatabaseDiskFullError {
  const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));
  return new DatabaseDiskFullError(
    `PGlite in ${reserve.dir} was not started: its disk has ${mb(reserve.freeBytes)} MB free, less than the ${mb(reserve.reserveBytes)} MB kept in reserve (a full disk while PGlite starts a WAL segment hangs it for good); free space there or grow the volume, then start again (or lower METASERVER_PGLITE_DISK_RESERVE_MB, at least 20)`,
  );
}

export async function openPglite(
  dir?: string,
  opts: {
    log?: Logger;
    /** A dump (dumpDataDir) to start an empty directory from: restore. */ loadDataDir?: Blob;
    /** Free space below which writes are refused (a directory only). */ diskReserveMb?: number;
  } = {},
): Promise<Database & { pglite: PGlite }> {
  const unlock = dir ? lockPgliteDir(dir, opts.log) : () => {};
  let db: PGlite;
  const reserve = dir ? new DiskReserve(dir, (opts.diskReserveMb ?? DEFAULT_RESERVE_MB) * 1024 * 1024, opts.log) : null;
  try {
    if (dir) mkdirSync(dir, { recursive: true });
    // Starting writes too (recovery, a checkpoint): on a disk already below the reserve it
    // could meet the hang the reserve is there to avoid, before any statement is guarded.
    if (reserve?.full(true)) throw startRefused(reserve);
    db = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  } catch (err) {
    unlock();
    throw err;
  }
  const guarded = reserve ? diskGuard(db, reserve) : <T>(run: () => Promise<T>) => run();
  const query: Queryable['query'] = (sql, params) => guarded(async () => (await db.query(sql, params as unknown[])).rows as never[]);
  return {
    kind: 'pglite',
    /** The PGlite itself, for its own dump (src/backup). */
    pglite: db,
    query,
    async exec(sql) {
      await guarded(() => db.exec(sql));
    },
    async transaction(fn) {
      return await guarded(() =>
        db.transaction(async (tx) =>
          fn({
            query: async (sql, params) => (await tx.query(sql, params as unknown[])).rows as never[],
            exec: async (sql) => void (await tx.exec(sql)),
          }),
        ),
      );
    },
    async script(sql) {
      return (await guarded(() => db.exec(sql))).map((r) => r.rows as Array<Record<string, unknown>>);
    },
    diskFull: () => reserve?.full() ?? false,
    async close() {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  };
}
