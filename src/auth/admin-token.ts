// The organiser token: from the configuration, or generated at first start, printed once
// and kept only as a hash in the database.
import type { Config } from '../config.ts';
import type { SettingsRepository } from '../db/settings-repository.ts';
import type { Logger } from '../log.ts';
import { hashToken, newToken } from './tokens.ts';

export async function ensureAdminTokenHash(config: Pick<Config, 'adminToken'>, settings: SettingsRepository, log: Logger): Promise<string> {
  if (config.adminToken) return hashToken(config.adminToken);
  const stored = await settings.adminTokenHash();
  if (stored) return stored;
  const token = newToken('admin');
  const claimed = await settings.claimAdminTokenHash(hashToken(token));
  if (!claimed.ours) return claimed.hash;
  // Printed, not logged: logs are kept and shipped, this line is for the person starting the server.
  process.stderr.write(
    `\n  metaserver: no METASERVER_ADMIN_TOKEN was set, so an organiser token was generated.\n` +
      `  It is shown only now; keep it (only its hash is stored):\n\n      ${token}\n\n`,
  );
  log.info('generated the organiser token (printed once on stderr)');
  return claimed.hash;
}
