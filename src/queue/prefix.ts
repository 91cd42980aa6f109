// The Redis key prefix of this installation. Every process of one installation shares the
// database, so the id made with it (migration 006) gives them all the same prefix, and two
// installations sharing one Redis (two checkouts on one machine, a test next to a real
// server) never see each other's keys. METASERVER_QUEUE_PREFIX, when set, overrides it.
import type { SettingsRepository } from '../db/settings-repository.ts';

export async function queuePrefix(
  configured: string,
  settings: SettingsRepository,
): Promise<{ prefix: string; source: 'METASERVER_QUEUE_PREFIX' | 'installation' }> {
  if (configured) return { prefix: configured, source: 'METASERVER_QUEUE_PREFIX' };
  return { prefix: `metaserver-${(await settings.installationId()).slice(0, 12)}`, source: 'installation' };
}
