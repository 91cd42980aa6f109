// The ACL permissions the README lists ("Redis permissions (ACL)") are enough, and a user
// lacking one is refused at start naming what to grant: a private redis-server with users
// made by ACL SETUSER. The user with exactly the README's list runs the real meta-server
// through registration, dispatch and stored answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { createLogger } from '../../src/log.ts';
import { resolveRedis } from '../../src/queue/redis-launcher.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { openTestDatabase, startTestMetaserver, testConfig, waitFor } from '../support/runtime.ts';

/** The README's list, as given to ACL SETUSER (key and channel patterns for the test's prefix). */
const README_PERMISSIONS = '+@read +@write +@keyspace +@scripting +@transaction +@pubsub +@connection -@dangerous +info';
const PREFIX = 'aclt';

describe('the Redis user’s ACL permissions', () => {
  let redis: PrivateRedis;
  let admin: Redis;
  let sample: SampleServer;
  const urlOf = (user: string) => `redis://${user}:pw-${user}@${new URL(redis.url).host}`;
  const makeUser = (user: string, permissions: string) =>
    admin.call('ACL', 'SETUSER', user, 'on', `>pw-${user}`, `~${PREFIX}:*`, `&${PREFIX}:*`, ...permissions.split(' '));

  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url);
    sample = await startSampleServer({ port: 0 });
    await makeUser('queues', README_PERMISSIONS);
    await makeUser('noscripts', `${README_PERMISSIONS} -@scripting`);
    await makeUser('noinfo', README_PERMISSIONS.replace(' +info', ''));
    await makeUser('otherkeys', README_PERMISSIONS);
  });
  afterAll(async () => {
    admin?.disconnect();
    await sample?.close();
    await redis?.stop();
  });

  /** The message a start with this user and prefix is refused with. */
  async function refusal(user: string, prefix = PREFIX): Promise<string> {
    const database = await openTestDatabase();
    try {
      const ms = await startTestMetaserver({ database, config: { redisUrl: urlOf(user), queuePrefix: prefix } });
      await ms.stop();
      return 'started';
    } catch (err) {
      return (err as Error).message;
    } finally {
      await database.drop();
    }
  }

  it('refuses a user without the scripting category, naming it and the README section', async () => {
    expect(await refusal('noscripts')).toMatch(
      /lacks a permission \(NOPERM .*'eval' command\): grant the category \(ACL SETUSER <user> \+@scripting\); see "Redis permissions \(ACL\)" in the README/,
    );
  });

  it('refuses a user without INFO (BullMQ reads the server version with it)', async () => {
    expect(await refusal('noinfo')).toMatch(
      /lacks a permission \(NOPERM .*'info' command\): grant the command \(ACL SETUSER <user> \+info\)/,
    );
  });

  it('refuses a user whose keys are not under the queue prefix', async () => {
    expect(await refusal('otherkeys', 'elsewhere')).toMatch(/lacks a permission \(NOPERM .*key.*\): grant the keys under the queue prefix/);
  });

  it('refuses METASERVER_REDIS_CLUSTER=yes on a Redis that is not in cluster mode', async () => {
    const log = createLogger(testConfig({ logLevel: 'silent' }));
    await expect(resolveRedis({ redisUrl: redis.url, dataDir: '', redisWaitSeconds: 0, redisCluster: 'yes' }, log)).rejects.toThrow(
      /METASERVER_REDIS_CLUSTER is "yes", but Redis at REDIS_URL is not in cluster mode/,
    );
  });

  it('runs registration, dispatch and stored answers with exactly the README’s permissions', async () => {
    const ms = await startTestMetaserver({ config: { redisUrl: urlOf('queues'), queuePrefix: PREFIX } });
    try {
      await ms.challenge('acl');
      const team = await ms.team();
      for (const name of ['acl-a', 'acl-b']) {
        const server = await ms.server('acl', team.token, { name, url: sample.url });
        await ms.startServer(server.id, team.token);
      }
      await ms.articles(
        'acl',
        [1, 2, 3].map((k) => ({ id: `PMC${k}`, text: `Article ${k}: BRCA1 (P38398) binds TP53.` })),
      );
      const answered = await waitFor('every pair answered', async () => {
        const rows = await ms.database.db.query<{ n: number; pairs: number }>(
          'select count(*)::int as n, count(distinct (article_id, server_id))::int as pairs from answers',
        );
        return rows[0].n >= 6 ? rows[0] : undefined;
      });
      expect(answered).toEqual({ n: 6, pairs: 6 });
    } finally {
      await ms.stop();
    }
  }, 20_000);
});
