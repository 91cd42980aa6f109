// The one way this project opens a Redis connection that serves queues: a plain ioredis
// client, or — when REDIS_URL names a node of a Redis Cluster — an ioredis Cluster seeded
// with that node, the URL's user, password and TLS carried to every node it discovers.
// Whether it is a cluster is decided once at start (redis-launcher.ts) and passed down.
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to a single Redis or to a Redis Cluster: the commands this project sends exist on both. */
export type RedisConnection = Redis | Cluster;

/** Where the queues are: REDIS_URL (or the Redis found or started) and whether it is a cluster. */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

/** What a redis:// or rediss:// URL says beyond host and port, as options every cluster node gets. */
function nodeOptions(url: URL): RedisOptions {
  return {
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
  };
}

/** `options` as for `new Redis(url, options)`; BullMQ's connections need maxRetriesPerRequest: null. */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisConnection {
  if (!target.cluster) return new Redis(target.url, options);
  const url = new URL(target.url);
  const seed = { host: url.hostname, port: Number(url.port || 6379) };
  return new Cluster([seed], {
    redisOptions: { ...nodeOptions(url), ...options },
    // Commands wait for the slots to be known rather than fail while the cluster is read.
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    // ioredis's 1 s was too short for a busy process at start: the first refresh failed.
    slotsRefreshTimeout: 5000,
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
  });
}

/**
 * A name whose keys a cluster keeps in one hash slot: Redis hashes only what is between the
 * first `{` and `}` of a key. Every key of one BullMQ queue must be in one slot (its Lua
 * scripts touch several), and different names land on different slots, so different
 * servers' queues spread over the nodes. On a single Redis names stay as they were: an
 * upgraded installation's queues keep their keys.
 */
export function hashTagged(name: string, cluster: boolean): string {
  return cluster ? `{${name}}` : name;
}
