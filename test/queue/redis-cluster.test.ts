// The meta-server on a Redis Cluster of three masters on loopback: REDIS_URL names one node,
// the cluster is found at start (METASERVER_REDIS_CLUSTER=auto), every pair of article and
// annotation server is answered exactly once, and the servers' queues live on different
// nodes (each queue's keys in the hash slot of its own tag). A cluster node given with
// METASERVER_REDIS_CLUSTER=no is refused at start, by name, instead of CROSSSLOT in the logs.
// It connects as an ACL user with exactly the README's permissions for a cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { createLogger } from '../../src/log.ts';
import { resolveRedis } from '../../src/queue/redis-launcher.ts';
import { connectRedis } from '../../src/queue/redis-connection.ts';
import { LeaseRecords, newLeaseId } from '../../src/pull/lease-records.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.ts';
import { startTestMetaserver, testConfig, waitFor, type TestMetaserver } from '../support/runtime.ts';

const SERVERS = 4;
const PREFIX = 'clt';
/** The README's ACL list for a cluster ("Redis permissions (ACL)"), given to a user on every node. */
const CLUSTER_PERMISSIONS =
  '+@read +@write +@keyspace +@scripting +@transaction +@pubsub +@connection -@dangerous +info +cluster|info +cluster|slots';
const ARTICLES = 8;
const textOf = (k: number) => `Title: cluster article ${k}\n\nBRCA1 (P38398) binds TP53 (P04637) in article ${k}.`;

describe('a Redis Cluster of three masters', () => {
  let cluster: TestRedisCluster;
  let ms: TestMetaserver | undefined;
  const servers: FaultyServer[] = [];
  /** Per annotation server: how many times each article's text reached it. */
  const seen: Array<Map<string, number>> = [];

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    for (const node of cluster.nodes())
      await node.call('ACL', 'SETUSER', 'queues', 'on', '>pw-q', `~${PREFIX}:*`, `&${PREFIX}:*`, ...CLUSTER_PERMISSIONS.split(' '));
    for (let i = 0; i < SERVERS; i++) {
      const calls = new Map<string, number>();
      seen.push(calls);
      servers.push(
        await startFaultyServer({
          kind: 'custom',
          handler: (text, given) => {
            calls.set(text, (calls.get(text) ?? 0) + 1);
            return annotate(text, given);
          },
        }),
      );
    }
  }, 20_000);
  afterAll(async () => {
    await ms?.stop();
    await Promise.all(servers.map((s) => s.close()));
    await cluster?.stop();
  });

  it('refuses a cluster node at start when METASERVER_REDIS_CLUSTER is no, naming the setting', async () => {
    const log = createLogger(testConfig({ logLevel: 'silent' }));
    await expect(resolveRedis({ redisUrl: cluster.url, dataDir: '', redisWaitSeconds: 0, redisCluster: 'no' }, log)).rejects.toThrow(
      /is a node of a Redis Cluster, but METASERVER_REDIS_CLUSTER is "no".*CROSSSLOT/,
    );
  });

  it('keeps a pull lease’s records in one slot: saved, listed as expired, claimed exactly once', async () => {
    const connection = connectRedis({ url: cluster.url, cluster: true }, { maxRetriesPerRequest: null });
    try {
      const records = new LeaseRecords(connection, PREFIX, true);
      const id = newLeaseId();
      const now = Date.now();
      const lease = {
        id,
        kind: 'job' as const,
        serverId: 7,
        jobId: 'j',
        articleId: 'a',
        n: 1,
        startedAt: now,
        deadline: now + 1000,
        bytesSent: 0,
        keepAliveMs: 0,
        teamId: 3,
      };
      await records.save(lease);
      expect(await records.expired(now + 2000)).toEqual([id]);
      expect((await records.agentStatus(7)).leasesHeld).toBe(1);
      expect(await records.claim(lease)).toBe(true);
      expect(await records.claim(lease)).toBe(false);
      expect(await records.peek(id)).toBeNull();
      // Read and claimed in one script (an answer's): another team only reads it; its own team claims it once.
      await records.save(lease);
      expect(await records.readAndClaim(id, 4)).toEqual({ lease, claimed: false });
      expect(await records.readAndClaim(id, 3)).toEqual({ lease, claimed: true });
      expect(await records.readAndClaim(id, 3)).toBeNull();
      expect((await records.agentStatus(7)).leasesHeld).toBe(0);
      expect(await records.expired(now + 2000)).toEqual([]);
    } finally {
      connection.disconnect();
    }
  });

  it('answers every pair exactly once, with the servers’ queues spread over the nodes', async () => {
    const url = new URL(cluster.url);
    url.username = 'queues';
    url.password = 'pw-q';
    const started = await startTestMetaserver({ config: { redisUrl: url.toString(), queuePrefix: PREFIX } });
    ms = started;
    expect(started.redis.cluster).toBe(true);
    await started.challenge('cl');
    const ids: number[] = [];
    for (const [i, s] of servers.entries()) {
      const team = await started.team(`Cluster team ${i}`);
      const server = await started.server('cl', team.token, { name: `cluster-${i}`, url: s.url });
      await started.startServer(server.id, team.token);
      ids.push(server.id);
    }
    const articles = Array.from({ length: ARTICLES }, (_, k) => ({ id: `PMC${k}`, text: textOf(k) }));
    await started.articles('cl', articles);

    const pairs = await waitFor('every pair answered', async () => {
      const rows = await started.database.db.query<{ n: number; pairs: number }>(
        'select count(*)::int as n, count(distinct (article_id, server_id))::int as pairs from answers',
      );
      return rows[0].n >= SERVERS * ARTICLES ? rows[0] : undefined;
    });
    expect(pairs).toEqual({ n: SERVERS * ARTICLES, pairs: SERVERS * ARTICLES });
    // Each server got each article's text exactly once (its setup check sent another text).
    for (const calls of seen) for (let k = 0; k < ARTICLES; k++) expect(calls.get(textOf(k))).toBe(1);

    // Where each server's queue lives: the node holding its BullMQ meta key.
    const holders = new Set<number>();
    for (const id of ids) {
      const key = `${started.config.queuePrefix}:{server-${id}}:meta`;
      const on = await Promise.all(cluster.nodes().map(async (node) => (await node.exists(key).catch(() => 0)) === 1));
      expect(on.filter(Boolean)).toHaveLength(1);
      holders.add(on.indexOf(true));
    }
    expect(holders.size).toBeGreaterThanOrEqual(2);
  }, 25_000);
});
