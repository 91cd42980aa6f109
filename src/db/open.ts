import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { redactUrl } from '../shared/redact-url.ts';

/** PostgreSQL when databaseUrl is set, else PGlite under the data directory; migrated. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgliteDiskReserveMb'>,
  log: Logger,
): Promise<Database> {
  let db: Database;
  if (config.databaseUrl) {
    db = await openPostgres({ url: config.databaseUrl });
    try {
      await db.query('select 1');
    } catch (err) {
      await db.close().catch(() => {});
      throw new Error(
        `cannot reach PostgreSQL at DATABASE_URL (${redactUrl(config.databaseUrl)}): ${(err as Error).message}. Start PostgreSQL or unset DATABASE_URL to use the embedded database.`,
      );
    }
    log.info({ database: 'postgres', url: redactUrl(config.databaseUrl) }, 'using PostgreSQL');
  } else {
    const dir = join(config.dataDir, 'pg');
    db = await openPglite(dir, { log, diskReserveMb: config.pgliteDiskReserveMb });
    log.info({ database: 'pglite', dir }, 'using the embedded PGlite database (single process; set DATABASE_URL to scale out)');
  }
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  return db;
}
