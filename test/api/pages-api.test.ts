// The API additions the web pages use (issue 21): whose token it is, a challenge's articles
// by state, a setup check that runs after the answer, and validation errors in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let sample: SampleServer;
let hanging: FaultyServer;
let team = '';

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 2 } });
  sample = await startSampleServer({ port: 0 });
  hanging = await startFaultyServer({ kind: 'hang' });
  await ms.challenge('pg', { name: 'Pages', maxAttempts: 1, retryDelaySeconds: 0 });
  await ms.articles('pg', [
    { id: 'A1', text: 'BRCA1 (P38398).' },
    { id: 'A2', text: 'TP53 (P04637).' },
  ]);
  team = (await ms.team('Pages team')).token;
}, 60_000);

afterAll(async () => {
  await ms?.stop();
  await sample?.close();
  await hanging?.close();
});

describe('GET /api/whoami', () => {
  it('names the organiser, the team, or nobody, and refuses a token that is not valid', async () => {
    expect((await ms.request('GET', '/api/whoami', undefined, ADMIN_TOKEN)).body).toEqual({ role: 'organiser' });
    expect((await ms.request('GET', '/api/whoami', undefined, team)).body).toMatchObject({ role: 'team', team: { name: 'Pages team' } });
    expect((await ms.request('GET', '/api/whoami')).body).toEqual({ role: 'anonymous' });
    const wrong = await ms.request('GET', '/api/whoami', undefined, 'mst_wrong');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/the token is not valid/);
  });
});

describe('a setup check in the background', () => {
  it('answers the registration at once, says the check runs, then stores its timeout', async () => {
    const registered = await ms.request(
      'POST',
      '/api/challenges/pg/servers?background=true',
      { name: 'hangs', url: hanging.url, tasks: ['INT'] },
      team,
    );
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ name: 'hangs', check: null, checkRunning: true });
    // The server never answers: the check ends only at its 2 s deadline, so it is still running now.
    const during = await ms.request('GET', `/api/servers/${registered.body.id}`, undefined, team);
    expect(during.body).toMatchObject({ checkRunning: true, check: null });
    let after = during;
    const end = Date.now() + 20_000;
    while (after.body.checkRunning && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      after = await ms.request('GET', `/api/servers/${registered.body.id}`, undefined, team);
    }
    expect(after.body).toMatchObject({ checkRunning: false, check: { ok: false, outcome: 'timeout' } });

    const again = await ms.request('POST', `/api/servers/${registered.body.id}/check?background=true`, undefined, team);
    expect(again.status).toBe(202);
    expect(again.body.checkRunning).toBe(true);
  }, 30_000);

  it('still checks inline without ?background', async () => {
    const registered = await ms.request('POST', '/api/challenges/pg/servers', { name: 'sample', url: sample.url, tasks: ['INT'] }, team);
    expect(registered.status).toBe(201);
    expect(registered.body.check).toMatchObject({ ok: true, outcome: 'ok' });
  });
});

describe('GET /api/challenges/:slug/articles', () => {
  it("lists the articles with their state, filters by state, and is the organiser's", async () => {
    const all = await ms.request('GET', '/api/challenges/pg/articles', undefined, ADMIN_TOKEN);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.articles.map((a: { organiserId: string }) => a.organiserId)).toEqual(['A1', 'A2']);
    expect(all.body.articles[0]).toMatchObject({ state: 'pending', servers: 0, done: 0, failed: 0 });
    const pending = await ms.request('GET', '/api/challenges/pg/articles?state=pending&limit=1&offset=1', undefined, ADMIN_TOKEN);
    expect(pending.body).toMatchObject({ total: 2, offset: 1, state: 'pending' });
    expect(pending.body.articles.map((a: { organiserId: string }) => a.organiserId)).toEqual(['A2']);
    expect((await ms.request('GET', '/api/challenges/pg/articles?state=done', undefined, ADMIN_TOKEN)).body.articles).toEqual([]);
    // By key: `next` leads to the page after, and is null on a last page even when it is full.
    const first = await ms.request('GET', '/api/challenges/pg/articles?limit=1', undefined, ADMIN_TOKEN);
    expect(first.body).toMatchObject({ total: 2, next: expect.stringMatching(/^\d+$/) });
    const second = await ms.request('GET', `/api/challenges/pg/articles?limit=1&after=${first.body.next}`, undefined, ADMIN_TOKEN);
    expect(second.body).toMatchObject({ total: null, next: null });
    expect(second.body.articles.map((a: { organiserId: string }) => a.organiserId)).toEqual(['A2']);
    expect((await ms.request('GET', '/api/challenges/pg/articles?limit=2', undefined, ADMIN_TOKEN)).body.next).toBeNull();
    expect((await ms.request('GET', '/api/challenges/pg/articles', undefined, team)).status).toBe(403);
    const bad = await ms.request('GET', '/api/challenges/pg/articles?limit=0', undefined, ADMIN_TOKEN);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('limit: limit is a whole number from 1 to 1000');
  });
});

describe('validation errors in words', () => {
  it('says the slug rule, an empty article id, a missing field and an unknown one', async () => {
    const slug = await ms.request('POST', '/api/challenges', { slug: 'Bad Slug', name: 'x', tasks: ['INT'] }, ADMIN_TOKEN);
    expect(slug.status).toBe(400);
    expect(slug.body.error.message).toMatch(/^slug: the slug may hold only lower-case letters/);
    expect(slug.body.error.details[0].keyword).toBe('pattern');
    const empty = await ms.request('POST', '/api/challenges/pg/articles', { articles: [{ id: '', text: 'x' }] }, ADMIN_TOKEN);
    expect(empty.body.error.message).toBe('articles[0].id is empty; fill it in');
    const missing = await ms.request('POST', '/api/teams', { name: 'No contact' });
    expect(missing.body.error.message).toBe('contact is missing; it is required');
    const extra = await ms.request('POST', '/api/teams', { name: 'Extra', contact: 'e@example.org', colour: 'red' });
    expect(extra.body.error.message).toBe('colour is not a field of this request; leave it out');
  });
});
