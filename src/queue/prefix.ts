// The Redis key prefix of this installation. Every process of one installation shares the
// database, so the id made with it (migration 006) gives them all the same prefix, and two
// installations sharing one Redis (two checkouts on one machine, a test next to a real
// server) never see each other's keys. METASERVER_QUEUE_PREFIX, when set, overrides it.
import type { SettingsRepository } from '../db/settings-repository.ts';

/** Where the prefix came from: the setting, or the installation's id. */
export type PrefixSource = 'METASERVER_QUEUE_PREFIX' | 'installation';

/** The prefix an installation id gives (also printed by a restore, naming the original's keys). */
export function installationPrefix(installationId: string): string {
  return `metaserver-${installationId.slice(0, 12)}`;
}

export async function queuePrefix(configured: string, settings: SettingsRepository): Promise<{ prefix: string; source: PrefixSource }> {
  if (configured) return { prefix: configured, source: 'METASERVER_QUEUE_PREFIX' };
  return { prefix: installationPrefix(await settings.installationId()), source: 'installation' };
}
