// The start line of a service: where it serves, which database and which Redis, so the
// person who started it sees at once what it uses. No password is ever shown.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { ResolvedRedis } from '../queue/redis-launcher.ts';
import { redactUrl } from '../shared/redact-url.ts';

/** `PostgreSQL db on host:port`, or `PGlite in <dir>`. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite in ${join(config.dataDir, 'pg')}`;
  try {
    const u = new URL(config.databaseUrl);
    return `PostgreSQL ${u.pathname.replace(/^\//, '') || '(default database)'} on ${u.host || 'the local socket'}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

export function describeRedis(redis: Pick<ResolvedRedis, 'url' | 'source'>, config: Pick<Config, 'dataDir'>): string {
  if (redis.source === 'private') return `private redis-server in ${join(config.dataDir, 'redis')} (${redis.url})`;
  return `${redactUrl(redis.url)}${redis.source === 'REDIS_URL' ? ' (REDIS_URL)' : ' (found on the local port)'}`;
}
