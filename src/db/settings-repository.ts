// The installation's settings (one key-value table): its id, made by migration 006 and made
// again by a restore, and the hash of a generated organiser token. Also the database's health check.
import type { Database, Queryable } from './database.ts';

const INSTALLATION_KEY = 'installation_id';
const ADMIN_TOKEN_KEY = 'admin_token_hash';

export class SettingsRepository {
  constructor(private readonly db: Queryable) {}

  async installationId(): Promise<string> {
    const rows = await this.db.query<{ value: string }>('select value from settings where key = $1', [INSTALLATION_KEY]);
    if (!rows[0]) throw new Error('the database has no installation id; run the migrations (metaserver migrate)');
    return rows[0].value;
  }

  /** The stored organiser token hash, if one was generated before. */
  async adminTokenHash(): Promise<string | undefined> {
    return (await this.db.query<{ value: string }>('select value from settings where key = $1', [ADMIN_TOKEN_KEY]))[0]?.value;
  }

  /** Stores the hash unless another process stored one first; the hash that holds either way, and whether it was ours. */
  async claimAdminTokenHash(hash: string): Promise<{ hash: string; ours: boolean }> {
    const inserted = await this.db.query('insert into settings (key, value) values ($1, $2) on conflict do nothing returning 1', [
      ADMIN_TOKEN_KEY,
      hash,
    ]);
    if (inserted.length > 0) return { hash, ours: true };
    return { hash: (await this.adminTokenHash())!, ours: false };
  }

  /** Whether the database answers a trivial query (GET /healthz). */
  async ping(): Promise<boolean> {
    await this.db.query('select 1');
    return true;
  }

  /** Whether the database refuses writes for lack of disk space (PGlite below its reserve; GET /healthz). */
  diskFull(): boolean {
    return 'diskFull' in this.db ? ((this.db as Database).diskFull?.() ?? false) : false;
  }
}

/** The installation id a restored copy had (its original's), and the one drawn for it. */
export interface InstallationRenewal {
  before: string;
  after: string;
}

/**
 * Draws a new installation id, as migration 006 does, and says which it replaced: a restored
 * copy is a new installation, so it never shares its original's Redis keys. A function of its
 * own, not a method: the restore runs on a bare database, outside the composition root.
 */
export async function renewInstallationId(db: Queryable): Promise<InstallationRenewal> {
  const rows = await db.query<InstallationRenewal>(
    `with old as (select value from settings where key = $1)
     update settings s set value = replace(gen_random_uuid()::text, '-', '') from old
     where s.key = $1 returning old.value as before, s.value as after`,
    [INSTALLATION_KEY],
  );
  if (!rows[0]) throw new Error('the database has no installation id; run the migrations (metaserver migrate)');
  return rows[0];
}
