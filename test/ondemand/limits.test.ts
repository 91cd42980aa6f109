// What anyone can make the meta-server hold is bounded. An on-demand article over the
// on-demand size limit is a 413 (and its request is not read past what such an article can
// take); a client with onDemandPendingPerClient articles waiting gets 429, everyone together
// with onDemandPendingTotal waiting get 503, both with Retry-After and accepted again once
// articles are done — concurrent submissions included. Clients are teams by token and
// others by address (IPv6 by /64); X-Forwarded-For counts only from a configured proxy.
// Real Redis, real loopback annotation server, PGlite and (with DATABASE_URL) PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

const started: TestMetaserver[] = [];
const servers: FaultyServer[] = [];
afterAll(async () => {
  for (const m of started) await m.stop();
  await Promise.all(servers.map((s) => s.close()));
});

async function metaserver(opts: Parameters<typeof startTestMetaserver>[0]) {
  const ms = await startTestMetaserver(opts);
  started.push(ms);
  return ms;
}

function submit(ms: TestMetaserver, text: string, from: { ip?: string; token?: string; forwardedFor?: string } = {}) {
  const headers: Record<string, string> = {};
  if (from.token) headers.authorization = `Bearer ${from.token}`;
  if (from.forwardedFor) headers['x-forwarded-for'] = from.forwardedFor;
  return ms.app!.inject({ method: 'POST', url: '/api/articles', payload: { text }, headers, remoteAddress: from.ip ?? '127.0.0.1' });
}

describe('the on-demand size limit', () => {
  it('an article over maxOnDemandArticleBytes is a 413; a body far over it is not even read; challenge loads keep their own limit', async () => {
    const ms = await metaserver({ workers: false, config: { maxOnDemandArticleBytes: 10_000, maxArticleBytes: 50_000 } });
    expect((await submit(ms, 'x'.repeat(10_000))).statusCode).toBe(202);
    const over = await submit(ms, 'x'.repeat(10_001));
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toMatchObject({
      code: 'article_too_large',
      message: 'article: the article has 10001 bytes; at most 10000 are accepted',
    });
    const huge = await submit(ms, 'x'.repeat(200_000)); // over 6 × 10,000 + 64 KiB: refused while reading
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('body_too_large');
    await ms.challenge('sz', { name: 'Size' });
    await ms.articles('sz', [{ id: 'L1', text: 'x'.repeat(40_000) }]);
  });

  it('the default is 1 MiB', async () => {
    const ms = await metaserver({ workers: false });
    expect(ms.config.maxOnDemandArticleBytes).toBe(1024 * 1024);
  });
});

describe.each(testDatabaseKinds())('on-demand articles waiting (%s)', (databaseKind) => {
  it('per client 429, in total 503, with Retry-After; accepted again once the articles are done', async () => {
    // A live server that holds every article containing "HOLD" until released.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        if (text.includes('HOLD')) await gate;
        return annotate(text, given);
      },
    });
    servers.push(held);
    const ms = await metaserver({
      databaseKind,
      config: { onDemandPendingPerClient: 3, onDemandPendingTotal: 5, submitRateLimitPerMinute: 1000 },
    });
    const team = (await ms.team('Live team')).token;
    const server = await ms.server('live', team, { name: 'held', url: held.url });
    await ms.startServer(server.id, team);

    // Ten at once from one address: exactly three get in.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(ms, `HOLD BRCA1 burst ${i}`, { ip: '10.0.0.1' })));
    expect(burst.filter((r) => r.statusCode === 202)).toHaveLength(3);
    const refused = burst.find((r) => r.statusCode === 429)!;
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json().error).toMatchObject({ code: 'too_many_pending', details: { pending: 3, limit: 3 } });
    expect(refused.json().error.message).toMatch(/3 of your on-demand articles are still waiting .* retry in 30 s/);

    // Another client still gets in, until five wait in all.
    expect((await submit(ms, 'HOLD b1', { ip: '10.0.0.2' })).statusCode).toBe(202);
    expect((await submit(ms, 'HOLD t1', { token: team })).statusCode).toBe(202);
    const busy = await submit(ms, 'HOLD c1', { ip: '10.0.0.3' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('30');
    expect(busy.json().error).toMatchObject({ code: 'busy', details: { pending: 5, limit: 5 } });

    // Once the server answers, there is room again.
    release();
    await waitFor('every held article answered', async () => {
      const rows = await ms.database.db.query(`select 1 from deliveries where state in ('queued', 'active')`);
      return rows.length === 0 ? true : undefined;
    });
    expect((await submit(ms, 'BRCA1 again', { ip: '10.0.0.1' })).statusCode).toBe(202);
    expect((await submit(ms, 'BRCA1 too', { ip: '10.0.0.3' })).statusCode).toBe(202);
    const rows = await ms.database.db.query<{ submitted_by: string; n: string }>(
      `select submitted_by, count(*) as n from articles where submitted_by is not null group by submitted_by order by submitted_by`,
    );
    expect(rows.map((r) => [r.submitted_by, Number(r.n)])).toEqual([
      ['ip:10.0.0.1', 4],
      ['ip:10.0.0.2', 1],
      ['ip:10.0.0.3', 1],
      [`team:${server.teamId}`, 1],
    ]);
  }, 60_000);
});

describe('who a client is', () => {
  it('an IPv6 client counts by its /64, a team by its token whatever its address', async () => {
    const ms = await metaserver({ workers: false, config: { onDemandPendingPerClient: 2, submitRateLimitPerMinute: 1000 } });
    expect((await submit(ms, 'a', { ip: '2001:db8:1:2::1' })).statusCode).toBe(202);
    expect((await submit(ms, 'b', { ip: '2001:db8:1:2:ffff::9' })).statusCode).toBe(202);
    expect((await submit(ms, 'c', { ip: '2001:db8:1:2:abcd::1' })).statusCode).toBe(429); // same /64
    expect((await submit(ms, 'd', { ip: '2001:db8:1:3::1' })).statusCode).toBe(202); // next /64
    const team = (await ms.team('Roaming')).token;
    expect((await submit(ms, 'e', { token: team, ip: '10.1.0.1' })).statusCode).toBe(202);
    expect((await submit(ms, 'f', { token: team, ip: '10.1.0.2' })).statusCode).toBe(202);
    expect((await submit(ms, 'g', { token: team, ip: '10.1.0.3' })).statusCode).toBe(429);
  });

  it('X-Forwarded-For is ignored unless the connection comes from a configured proxy', async () => {
    const direct = await metaserver({ workers: false, config: { onDemandPendingPerClient: 1, submitRateLimitPerMinute: 1000 } });
    expect((await submit(direct, 'a', { ip: '10.2.0.1', forwardedFor: '192.0.2.1' })).statusCode).toBe(202);
    expect((await submit(direct, 'b', { ip: '10.2.0.1', forwardedFor: '192.0.2.2' })).statusCode).toBe(429); // the header changes nothing
    const proxied = await metaserver({
      workers: false,
      config: { onDemandPendingPerClient: 1, submitRateLimitPerMinute: 1000, trustProxy: '10.9.0.0/16' },
    });
    expect((await submit(proxied, 'a', { ip: '10.9.0.1', forwardedFor: '192.0.2.1' })).statusCode).toBe(202);
    expect((await submit(proxied, 'b', { ip: '10.9.0.1', forwardedFor: '192.0.2.2' })).statusCode).toBe(202); // another client behind the proxy
    expect((await submit(proxied, 'c', { ip: '10.9.0.1', forwardedFor: '192.0.2.2' })).statusCode).toBe(429);
    expect((await submit(proxied, 'd', { ip: '10.3.0.1', forwardedFor: '192.0.2.3' })).statusCode).toBe(202); // not the proxy: its own address counts …
    expect((await submit(proxied, 'e', { ip: '10.3.0.1', forwardedFor: '192.0.2.4' })).statusCode).toBe(429); // … whatever it claims
    await expect(metaserver({ workers: false, config: { trustProxy: 'true' } })).rejects.toThrow(
      /"true" is not an IP address, a CIDR range/,
    );
  });

  it('the per-minute rate limit counts the same clients', async () => {
    const ms = await metaserver({ workers: false, config: { submitRateLimitPerMinute: 2, onDemandPendingPerClient: 100 } });
    expect((await submit(ms, 'a', { ip: '2001:db8:5::1' })).statusCode).toBe(202);
    expect((await submit(ms, 'b', { ip: '2001:db8:5::2' })).statusCode).toBe(202);
    const limited = await submit(ms, 'c', { ip: '2001:db8:5::3' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
