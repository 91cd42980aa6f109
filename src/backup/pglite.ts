// Backups of the embedded database: PGlite's own dump of its data directory (dumpDataDir,
// a gzipped tar), and a restore that starts an empty directory from one (loadDataDir).
// PGlite belongs to one process, so a backup is taken by the process that holds the
// directory: `metaserver backup` when nothing serves it (it takes the lock), or the serving
// process itself through POST /api/admin/backup (consistent: PGlite runs one statement at
// a time, and the dump is taken between two).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../log.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { renewInstallationId, type InstallationRenewal } from '../db/settings-repository.ts';
import { BackupError } from './errors.ts';

/** The dump as bytes: a gzipped tar of the data directory. */
export async function dumpPglite(pglite: PGlite): Promise<Buffer> {
  const blob = await pglite.dumpDataDir('gzip');
  return Buffer.from(await blob.arrayBuffer());
}

/** Writes to a file beside `out` first and renames it, so a failed backup leaves no half-written file. */
export function writeWhole(out: string, bytes: Buffer): void {
  const partial = `${out}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, out);
}

/** `metaserver backup` of a PGlite directory no process serves (the lock refuses otherwise, naming the holder). */
export async function backupPgliteDir(dir: string, out: string, log: Logger): Promise<number> {
  if (!existsSync(dir))
    throw new BackupError(`there is no PGlite database in ${dir}; check METASERVER_DATA_DIR (or set DATABASE_URL to back up PostgreSQL)`);
  const db = await openPglite(dir, { log });
  try {
    const bytes = await dumpPglite(db.pglite);
    writeWhole(out, bytes);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/**
 * `metaserver restore FILE` into an empty PGlite directory; then migrated to this release and
 * made a new installation before the directory is let go, so no process ever opens the copy
 * under its original's id. A restore that fails before that leaves no directory behind.
 */
export async function restorePgliteDir(dir: string, file: string, log: Logger): Promise<{ migrated: string[] } & InstallationRenewal> {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new BackupError(
      `${dir} already holds a database; restore into a fresh data directory (METASERVER_DATA_DIR), or move that one away first`,
    );
  }
  const bytes = readFileSync(file);
  let db;
  try {
    db = await openPglite(dir, { log, loadDataDir: new Blob([bytes]) });
  } catch (err) {
    if (err instanceof Error && err.name === 'DataDirInUseError') throw err;
    rmSync(dir, { recursive: true, force: true }); // nothing half-restored stays behind
    throw new BackupError(`${file} could not be restored as a PGlite database: ${(err as Error).message}`);
  }
  let finished = false;
  try {
    const migrated = await migrate(db);
    const installation = await renewInstallationId(db);
    finished = true;
    return { migrated, ...installation };
  } finally {
    await db.close();
    if (!finished) rmSync(dir, { recursive: true, force: true });
  }
}
