// The Redis key prefix of this installation. Every process of one installation shares the
// database, so the id made with it (migration 006) gives them all the same prefix, and two
// installations sharing one Redis (two checkouts on one machine, a test next to a real
// server) never see each other's keys. METASERVER_QUEUE_PREFIX, when set, overrides it.
import type { Queryable } from '../db/database.ts';

export const INSTALLATION_KEY = 'installation_id';

export async function installationId(db: Queryable): Promise<string> {
  const rows = await db.query<{ value: string }>('select value from settings where key = $1', [INSTALLATION_KEY]);
  if (!rows[0]) throw new Error('the database has no installation id; run the migrations (metaserver migrate)');
  return rows[0].value;
}

export async function queuePrefix(configured: string, db: Queryable): Promise<{ prefix: string; source: 'METASERVER_QUEUE_PREFIX' | 'installation' }> {
  if (configured) return { prefix: configured, source: 'METASERVER_QUEUE_PREFIX' };
  return { prefix: `metaserver-${(await installationId(db)).slice(0, 12)}`, source: 'installation' };
}
