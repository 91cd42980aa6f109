// The figures through the API: GET /api/servers/:id has a reliability field computed from
// the stored attempts and answers, the organiser overview lists every server, and /metrics
// exposes queue depths, attempts by outcome and response times in Prometheus text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let good: FaultyServer;
let token: string;
let serverId: number;
const TEXTS = ['BRCA1 (P38398) binds TP53.', 'SNCA (P37840) and BRCA1 (P38398).'];

beforeAll(async () => {
  ms = await startTestMetaserver();
  good = await startFaultyServer({ kind: 'good' });
  await ms.challenge('rel', { name: 'Rel', timeoutSeconds: 5 });
  const articles = TEXTS.map((text, i) => ({ id: `R${i}`, text }));
  await ms.articles('rel', articles);
  token = (await ms.team('Rel team')).token;
  serverId = (await ms.server('rel', token, { name: 'good', url: good.url })).id;
  await ms.startServer(serverId, token);
  await waitFor('both answers', async () => {
    const rows = await ms.database.db.query(`select 1 from deliveries where server_id = $1 and state = 'done'`, [serverId]);
    return rows.length === 2 ? true : undefined;
  });
});
afterAll(async () => {
  await ms?.stop();
  await good?.close();
});

describe('reliability in the API', () => {
  it('GET /api/servers/:id carries the figures of its attempts and answers', async () => {
    const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, token);
    const r = res.body.reliability;
    const stored = await ms.database.db.query<{ ms: number; result: { INT?: unknown[] } }>(
      'select ms, result from answers where server_id = $1',
      [serverId],
    );
    const annotations = stored.reduce((s, a) => s + (a.result.INT?.length ?? 0), 0);
    const totalMs = stored.reduce((s, a) => s + a.ms, 0);
    expect(r).toMatchObject({ attempts: 2, successes: 2, successRate: 1, failurePeriods: 0, answeredDocuments: 2, mad: annotations / 2 });
    expect(r.artMs).toBeCloseTo(totalMs / 2, 0);
    const bytes = TEXTS.reduce((s, t) => s + Buffer.byteLength(t), 0);
    if (totalMs > 0) expect(r.mtdvBytesPerSecond).toBeCloseTo(bytes / (totalMs / 1000), 0);
  });

  it('the organiser overview lists every server of the challenge; teams are refused', async () => {
    const res = await ms.request('GET', '/api/challenges/rel/reliability', undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([
      expect.objectContaining({ serverId, name: 'good', reliability: expect.objectContaining({ successes: 2 }) }),
    ]);
    expect((await ms.request('GET', '/api/challenges/rel/reliability', undefined, token)).status).toBe(403);
    expect((await ms.request('GET', '/api/challenges/nope/reliability', undefined, ADMIN_TOKEN)).status).toBe(404);
  });

  it('/metrics is Prometheus text with queue depths, attempts by outcome and response times', async () => {
    const res = await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain(`metaserver_queue_jobs{server="${serverId}",state="waiting"} 0`);
    expect(res.body).toMatch(new RegExp(`metaserver_attempts_total\\{server="${serverId}",outcome="ok"\\} 2`));
    expect(res.body).toMatch(new RegExp(`metaserver_response_seconds_count\\{server="${serverId}"\\} 2`));
    expect(res.body).toContain('# TYPE metaserver_requests_in_flight gauge');
  });
});
