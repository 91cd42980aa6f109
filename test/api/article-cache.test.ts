// GET /api/articles/:id keeps each response, encoded, for statusCacheMs per article, caller
// and query: polls within that time are answered from it, and who may see what still holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let sample: SampleServer;
beforeAll(async () => {
  ms = await startTestMetaserver({ config: { statusCacheMs: 60_000 } });
  sample = await startSampleServer({ port: 0 });
});
afterAll(async () => {
  await ms?.stop();
  await sample?.close();
});

describe('the article response cache', () => {
  it('answers polls within the window from the first response, per caller and query; access checks still hold', async () => {
    await ms.challenge('ac', { name: 'Cache' });
    const ids = (await ms.articles('ac', [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53.' }])).ids;
    const team = (await ms.team('Servers')).token;
    const outsider = (await ms.team('Outsiders')).token;
    const server = await ms.server('ac', team, { name: 's', url: sample.url });

    const first = await ms.request('GET', `/api/articles/${ids.A1}`, undefined, ADMIN_TOKEN);
    expect(first.status).toBe(202);
    expect(first.body.text).toBe('BRCA1 (P38398) binds TP53.');
    await ms.startServer(server.id, team);
    await waitFor('the answer', async () =>
      (await ms.database.db.query('select 1 from answers where article_id = $1', [ids.A1])).length > 0 ? true : undefined,
    );

    // The organiser's poll within the window: the response computed first.
    const again = await ms.request('GET', `/api/articles/${ids.A1}`, undefined, ADMIN_TOKEN);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    // Another query, or another caller, is computed afresh: done.
    const lean = await ms.request('GET', `/api/articles/${ids.A1}?text=false`, undefined, ADMIN_TOKEN);
    expect([lean.status, lean.body.status, lean.body.text]).toEqual([200, 'done', undefined]);
    expect((await ms.request('GET', `/api/articles/${ids.A1}`, undefined, team)).status).toBe(200);
    // A team without a server in the challenge, and anonymous callers, still get nothing.
    expect((await ms.request('GET', `/api/articles/${ids.A1}`, undefined, outsider)).status).toBe(404);
    expect((await ms.request('GET', `/api/articles/${ids.A1}`)).status).toBe(404);
    expect((await ms.request('GET', '/api/articles/00000000-0000-4000-8000-000000000000', undefined, ADMIN_TOKEN)).status).toBe(404);
  });
});
