// Two questions asked once at start, before any queue is opened: is REDIS_URL's Redis a node
// of a Redis Cluster (METASERVER_REDIS_CLUSTER), and may its user run what the queues need?
// Both were found out late before: a cluster node answered every queue command with
// CROSSSLOT or MOVED, and an ACL user lacking a permission got NOPERM from BullMQ's first
// command — hundreds of thousands of log lines, nothing dispatched, no word of the cause.
import { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import { RedisUnavailableError } from './redis-errors.ts';
import { redisRefusal } from './redis-refusal.ts';
import { hashTagged, type RedisConnection } from './redis-connection.ts';

const SETTING_HINT = 'METASERVER_REDIS_CLUSTER';

/**
 * Whether the node's INFO says it runs in cluster mode. On a cluster node, also the two
 * CLUSTER subcommands the cluster client sends before anything else: without them it waits
 * for good, with no error.
 */
async function clusterEnabled(url: string): Promise<boolean> {
  // No ready check: it runs INFO itself, and warns on the console when the user may not.
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: false,
  });
  client.on('error', () => {}); // the command's rejection says what failed
  try {
    await client.connect();
    const enabled = /^cluster_enabled:1/m.test(await client.info('cluster'));
    if (enabled) {
      await client.cluster('INFO');
      await client.cluster('SLOTS');
    }
    return enabled;
  } catch (err) {
    // BullMQ needs INFO too (it reads the server's version), so a user without it cannot run the queues.
    throw new RedisUnavailableError(redisRefusal(url, err as Error));
  } finally {
    client.disconnect();
  }
}

/**
 * Whether the queues run on a Redis Cluster: the setting, checked against what the node
 * says. A cluster node with the setting `no` is refused: every queue command would fail
 * with CROSSSLOT or MOVED. `yes` on a single Redis is refused as well (the cluster client
 * would find no slots).
 */
export async function decideCluster(url: string, setting: string, log: Logger): Promise<boolean> {
  const enabled = await clusterEnabled(url);
  if (setting === 'no' && enabled)
    throw new RedisUnavailableError(
      `Redis at REDIS_URL is a node of a Redis Cluster, but ${SETTING_HINT} is "no": the queues' commands would fail (CROSSSLOT, MOVED). Set ${SETTING_HINT}=auto (or yes).`,
    );
  if (setting === 'yes' && !enabled)
    throw new RedisUnavailableError(
      `${SETTING_HINT} is "yes", but Redis at REDIS_URL is not in cluster mode (INFO cluster: cluster_enabled:0). Set ${SETTING_HINT}=auto (or no), or point REDIS_URL at a cluster node.`,
    );
  if (enabled) log.info('REDIS_URL names a node of a Redis Cluster: each queue is kept in a hash slot of its own');
  return enabled;
}

/**
 * Runs each kind of command the queues use once, on a few keys of their own under the
 * prefix (removed at once): a missing permission is refused now, naming the command and
 * its ACL category, not met later as a queue that never moves. The data commands run
 * outside Lua on purpose: inside a script Redis does not name the command refused.
 */
export async function checkRedisPermissions(
  connection: RedisConnection,
  target: { url: string; prefix: string; cluster: boolean },
): Promise<void> {
  const base = `${target.prefix}:${hashTagged('permission-check', target.cluster)}`;
  const key = (what: string) => `${base}:${what}`;
  const steps: Array<() => Promise<unknown>> = [
    () => connection.set(key('string'), '1', 'PX', 10_000),
    () => connection.get(key('string')),
    () => connection.hset(key('hash'), 'f', '1'),
    () => connection.lpush(key('list'), '1'),
    () => connection.zadd(key('zset'), 1, 'm'),
    () => connection.sadd(key('set'), 'm'),
    () => connection.xadd(key('stream'), 'MAXLEN', '~', '10', '*', 'f', '1'),
    () => connection.pexpire(key('hash'), 10_000),
    () => connection.exists(key('string')),
    () => connection.eval("return redis.call('EXISTS', KEYS[1])", 1, key('string')),
    () => connection.multi().get(key('string')).exec(),
    () => connection.publish(key('channel'), 'permission check'),
    () => connection.info('server'),
  ];
  try {
    for (const step of steps) await step();
  } catch (err) {
    const message = (err as Error).message;
    // A MULTI refused shows up as EXECABORT naming the command inside.
    const refused = /NOPERM/.test(message)
      ? Object.assign(new Error(message.replace(/^.*?NOPERM/, 'NOPERM')), { code: 'NOPERM' })
      : (err as Error);
    throw new RedisUnavailableError(redisRefusal(target.url, refused));
  } finally {
    await connection.del(...['string', 'hash', 'list', 'zset', 'set', 'stream'].map(key)).catch(() => {}); // a user that may not delete was refused above; the keys expire or are tiny
  }
}
