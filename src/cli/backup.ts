// `metaserver backup --out FILE` and `metaserver restore FILE`: PostgreSQL through the
// machine's pg_dump/pg_restore (custom format), PGlite through its own dump of the data
// directory. A PGlite installation that is serving holds its directory; its backup is taken
// by the serving process (`--from URL`: POST /api/admin/backup with the organiser token).
import { openSync, closeSync, readSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { createLogger, type Logger } from '../log.ts';
import { BackupError } from '../backup/errors.ts';
import { reportNewInstallation } from '../backup/new-installation.ts';
import { renewInstallationId, type InstallationRenewal } from '../db/settings-repository.ts';
import { DataDirInUseError } from '../queue/data-dir-lock.ts';

const BACKUP_USAGE =
  'usage: metaserver backup --out FILE [--from URL]  (--from: the address of a serving PGlite installation; token from METASERVER_ADMIN_TOKEN)';
const RESTORE_USAGE = 'usage: metaserver restore FILE  (into the fresh database DATABASE_URL names, or the empty METASERVER_DATA_DIR)';

async function reported(usage: string, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (err) {
    if (err instanceof BackupError || err instanceof DataDirInUseError) {
      process.stderr.write(`metaserver: ${err.message}\n`);
      return 1;
    }
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`metaserver: ${(err as Error).message}\n${usage}\n`);
      return 2;
    }
    throw err;
  }
}

/** Asks a serving installation for its dump (POST /api/admin/backup) and writes it whole. */
async function backupFrom(url: string, out: string, token: string): Promise<number> {
  if (!token) throw new BackupError('a backup through the API needs the organiser token: set METASERVER_ADMIN_TOKEN');
  const { apiTarget, callApiBytes, ApiCallError } = await import('./api-client.ts');
  let bytes: Buffer;
  try {
    bytes = await callApiBytes(apiTarget({ url, token }), 'POST', '/api/admin/backup');
  } catch (err) {
    if (err instanceof ApiCallError) throw new BackupError(err.message);
    throw err;
  }
  const { writeWhole } = await import('../backup/pglite.ts');
  writeWhole(out, bytes);
  return bytes.length;
}

export async function runBackupCommand(args: string[]): Promise<number> {
  return await reported(BACKUP_USAGE, async () => {
    const { values } = parseArgs({ args, options: { out: { type: 'string' }, from: { type: 'string' } }, strict: true });
    if (!values.out) throw new BackupError(`--out FILE is required\n${BACKUP_USAGE}`);
    const out = resolve(values.out);
    const config = loadConfig();
    const log = createLogger(config);
    if (values.from) {
      const bytes = await backupFrom(values.from, out, config.adminToken);
      log.info({ out, bytes, from: values.from }, `backup written to ${out} by the serving meta-server`);
    } else if (config.databaseUrl) {
      const { pgDump } = await import('../backup/postgres.ts');
      const partial = `${out}.partial`;
      try {
        await pgDump(config.databaseUrl, partial);
        renameSync(partial, out);
      } finally {
        rmSync(partial, { force: true });
      }
      log.info({ out }, `PostgreSQL backup written to ${out} (pg_dump, custom format)`);
    } else {
      const { backupPgliteDir } = await import('../backup/pglite.ts');
      const bytes = await backupPgliteDir(join(config.dataDir, 'pg'), out, log);
      log.info({ out, bytes }, `PGlite backup written to ${out}`);
    }
  });
}

/** What a backup file is, by its first bytes. */
function fileKind(file: string): 'pglite' | 'postgres' | 'unknown' {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new BackupError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const head = Buffer.alloc(5);
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  return 'unknown';
}

/**
 * pg_restore, then the migrations of this release and a new installation id. pg_restore's
 * transaction cannot hold that last step; when it fails the copy still has its original's
 * id, so the organiser is told not to start it.
 */
async function restorePostgres(config: Config, file: string, log: Logger): Promise<InstallationRenewal> {
  const { pgRestore } = await import('../backup/postgres.ts');
  await pgRestore(config.databaseUrl, file);
  const { openDatabase } = await import('../db/open.ts');
  const db = await openDatabase(config, log); // migrated to this release
  try {
    return await renewInstallationId(db);
  } catch (err) {
    throw new BackupError(
      `the backup was restored but not made a new installation (${(err as Error).message}); do not start this database beside its original: drop it and restore again`,
    );
  } finally {
    await db.close();
  }
}

export async function runRestoreCommand(args: string[]): Promise<number> {
  return await reported(RESTORE_USAGE, async () => {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new BackupError(`give one backup file\n${RESTORE_USAGE}`);
    const file = resolve(positionals[0]);
    const config = loadConfig();
    const log = createLogger(config);
    const kind = fileKind(file);
    if (kind === 'unknown')
      throw new BackupError(`${file} is not a metaserver backup (neither a PGlite dump nor a pg_dump custom-format file)`);
    if (config.databaseUrl) {
      if (kind !== 'postgres')
        throw new BackupError(`${file} is a PGlite backup; unset DATABASE_URL to restore it into METASERVER_DATA_DIR`);
      const installation = await restorePostgres(config, file, log);
      log.info({ file }, `restored ${file} into PostgreSQL; start the meta-server: unsettled work is queued again`);
      reportNewInstallation(log, installation, config.queuePrefix);
    } else {
      if (kind !== 'pglite')
        throw new BackupError(`${file} is a PostgreSQL backup (pg_dump); set DATABASE_URL to the fresh database to restore it into`);
      const { restorePgliteDir } = await import('../backup/pglite.ts');
      const dir = join(config.dataDir, 'pg');
      const { migrated, ...installation } = await restorePgliteDir(dir, file, log);
      log.info({ file, dir, migrated }, `restored ${file} into ${dir}; start the meta-server: unsettled work is queued again`);
      reportNewInstallation(log, installation, config.queuePrefix);
    }
  });
}
