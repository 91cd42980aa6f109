// Two installations on one Redis with default settings (two checkouts on one machine, a
// test next to a real server): each takes the key prefix of its own database's installation
// id, so neither takes the other's jobs — both have a server 1 with a queue `server-1`, and
// both finish their work. The processes of one installation share its prefix, and
// METASERVER_QUEUE_PREFIX still overrides it.
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { gatedServer } from '../support/gated-server.ts';
import {
  openTestDatabase,
  startTestMetaserver,
  testDatabaseKinds,
  waitFor,
  type TestDatabase,
  type TestMetaserver,
} from '../support/runtime.ts';
import { SettingsRepository } from '../../src/db/settings-repository.ts';

const ARTICLES = 12;

describe.each(testDatabaseKinds())('two installations on one Redis (%s)', (kind) => {
  const databases: TestDatabase[] = [];
  const installs: TestMetaserver[] = [];
  const gates: Array<Awaited<ReturnType<typeof gatedServer>>> = [];
  const texts: string[][] = [[], []];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const database = await openTestDatabase(kind);
      databases.push(database);
      // queuePrefix '' is the default: the prefix comes from the installation.
      installs.push(await startTestMetaserver({ database, config: { queuePrefix: '' } }));
      const seen = texts[i];
      gates.push(
        await gatedServer((_call, text) => {
          if (text.startsWith('Install')) seen.push(text);
          return false;
        }),
      );
    }
  });
  afterAll(async () => {
    const redis = new Redis(inject('redisUrl'));
    for (const ms of installs) {
      await ms.stop();
      // The test Redis is shared by the run: leave no key of these installations behind.
      const keys = await redis.keys(`${ms.ctx.config.queuePrefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
    for (const d of databases) await d.drop();
    for (const g of gates) await g.server.close();
  });

  it('each has a prefix of its own, from its database', async () => {
    const [a, b] = installs.map((ms) => ms.ctx.config.queuePrefix);
    expect(a).toBe(`metaserver-${(await new SettingsRepository(databases[0].db).installationId()).slice(0, 12)}`);
    expect(b).toBe(`metaserver-${(await new SettingsRepository(databases[1].db).installationId()).slice(0, 12)}`);
    expect(a).not.toBe(b);
    // Another process of the same installation (an API next to the workers) shares it.
    const second = await startTestMetaserver({ database: databases[0], workers: false, config: { queuePrefix: '' } });
    expect(second.ctx.config.queuePrefix).toBe(a);
    await second.stop();
    // The setting still overrides it.
    const named = await startTestMetaserver({ database: databases[0], workers: false, config: { queuePrefix: 'chosen' } });
    expect(named.ctx.config.queuePrefix).toBe('chosen');
    await named.stop();
  });

  it('both dispatching at once, each sends its own articles only, and all of them', async () => {
    const servers = await Promise.all(
      installs.map(async (ms, i) => {
        await ms.challenge('same', { name: 'Same slug', timeoutSeconds: 10, maxAttempts: 1, retryDelaySeconds: 0 });
        const articles = Array.from({ length: ARTICLES }, (_, k) => ({
          id: `A${k}`,
          text: `Install ${i} article ${k}: BRCA1 (P38398) binds TP53.`,
        }));
        await ms.articles('same', articles);
        const token = (await ms.team('Team')).token;
        const server = await ms.server('same', token, { name: 's', url: gates[i].server.url, concurrency: 2 });
        return { server, token };
      }),
    );
    // Both installations have a server 1: the same queue name, `server-1`.
    expect(servers.map((s) => s.server.id)).toEqual([1, 1]);
    await Promise.all(installs.map((ms, i) => ms.startServer(servers[i].server.id, servers[i].token)));
    for (const ms of installs) {
      await waitFor(
        'every article answered in each installation',
        async () => {
          const rows = await ms.database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where state = 'done'`);
          return rows[0].n === ARTICLES ? true : undefined;
        },
        30_000,
      );
    }
    for (let i = 0; i < 2; i++) {
      expect(texts[i]).toHaveLength(ARTICLES);
      expect(texts[i].every((t) => t.startsWith(`Install ${i} `))).toBe(true);
      const answers = await installs[i].database.db.query<{ n: number }>('select count(*)::int as n from answers group by article_id');
      expect(answers).toHaveLength(ARTICLES);
      expect(answers.every((a) => a.n === 1)).toBe(true);
    }
  });
});
