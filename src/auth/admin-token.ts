// The organiser token: from the configuration, or generated at first start, printed once
// and kept only as a hash in the database.
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../log.ts';
import { hashToken, newToken } from './tokens.ts';

const KEY = 'admin_token_hash';

export async function ensureAdminTokenHash(config: Pick<Config, 'adminToken'>, db: Database, log: Logger): Promise<string> {
  if (config.adminToken) return hashToken(config.adminToken);
  const stored = await db.query<{ value: string }>('select value from settings where key = $1', [KEY]);
  if (stored[0]) return stored[0].value;
  const token = newToken('admin');
  const hash = hashToken(token);
  const inserted = await db.query('insert into settings (key, value) values ($1, $2) on conflict do nothing returning 1', [KEY, hash]);
  if (inserted.length === 0) return (await db.query<{ value: string }>('select value from settings where key = $1', [KEY]))[0]!.value;
  // Printed, not logged: logs are kept and shipped, this line is for the person starting the server.
  process.stderr.write(
    `\n  metaserver: no METASERVER_ADMIN_TOKEN was set, so an organiser token was generated.\n` +
      `  It is shown only now; keep it (only its hash is stored):\n\n      ${token}\n\n`,
  );
  log.info('generated the organiser token (printed once on stderr)');
  return hash;
}
