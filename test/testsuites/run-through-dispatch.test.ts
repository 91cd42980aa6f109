// A test suite run through the normal dispatch path: a real meta-server, a deliberately
// flawed tagger and a perfect one served over XML-RPC, the suite created through the API,
// the answers stored by the workers, and the report built from what was stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltInCatalogue } from '../../src/testsuites/catalogue-io.ts';
import { valuesOf } from '../../src/testsuites/feature-specs.ts';
import { generateSuite } from '../../src/testsuites/generate.ts';
import type { ClassScore } from '../../src/testsuites/report.ts';
import type { GeneratedItem } from '../../src/testsuites/types.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { inClass, isFault, SINGLES } from './run-helpers.ts';

const SAMPLE = 300;
const SEED = 'dispatch';
const BY = ['case,slot.position', 'kind,case,slot.position'];
const WORST = ['function_word=y', 'kind=symbol & case=lower-initial & slot.position=I'];

type Answer = { mentions: { offset: number; mention: string; type: string }[] };

describe('a test suite run through dispatch', () => {
  let ms: TestMetaserver;
  let flawed: FaultyServer;
  let perfect: FaultyServer;
  let items: GeneratedItem[];
  let teamToken: string;
  let flawedId: number;
  let perfectId: number;
  let copies: { sourceServerId: number; serverId: number }[];

  beforeAll(async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    items = generateSuite(entities, sentences, { sample: SAMPLE, seed: SEED }).items;
    // The handler only sees the text: it finds the gold (and the features) by it.
    const byText = new Map(items.map((i) => [i.text, i]));
    expect(byText.size).toBe(items.length);
    const answer =
      (faulty: boolean) =>
      (text: string): Answer => {
        const item = byText.get(text);
        const kept = item ? item.mentions.filter((_, k) => !(faulty && isFault(item, k))) : [];
        return { mentions: kept.map((m) => ({ offset: m.start, mention: m.text, type: 'gene' })) };
      };
    flawed = await startFaultyServer({ kind: 'custom', handler: answer(true) });
    perfect = await startFaultyServer({ kind: 'custom', handler: answer(false) });
    ms = await startTestMetaserver();
    await ms.challenge('c1', { name: 'C1', tasks: ['ACT', 'MENTION'], retryDelaySeconds: 0 });
    teamToken = (await ms.team('Taggers')).token;
    flawedId = (await ms.server('c1', teamToken, { name: 'flawed', url: flawed.url, tasks: ['MENTION'], concurrency: 4 })).id;
    perfectId = (await ms.server('c1', teamToken, { name: 'perfect', url: perfect.url, tasks: ['MENTION'], concurrency: 4 })).id;
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
    await flawed?.close();
    await perfect?.close();
  });

  it('the sample holds both fault classes', () => {
    const mentions = items.flatMap((it) => it.mentions.map((_, k) => [it, k] as const));
    expect(mentions.some(([it]) => it.entityFeatures?.function_word === true)).toBe(true);
    expect(
      mentions.some(
        ([it, k]) =>
          it.entityFeatures?.kind === 'symbol' &&
          valuesOf(it.entityFeatures.case).includes('lower-initial') &&
          it.slots[k].position.includes('I'),
      ),
    ).toBe(true);
  });

  it('creates the run with a team token on its own servers and every item goes through the queues', async () => {
    const res = await ms.request(
      'POST',
      '/api/testsuites',
      { name: 'flaws', sample: SAMPLE, seed: SEED, servers: [flawedId, perfectId] },
      teamToken,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'flaws', challenge: 'suite-flaws', items: SAMPLE });
    copies = res.body.servers;
    expect(copies.map((c) => c.sourceServerId)).toEqual([flawedId, perfectId]);
    expect(copies.every((c) => c.serverId !== c.sourceServerId)).toBe(true);

    const status = await waitFor(
      'the run to finish',
      async () => {
        const r = await ms.request('GET', '/api/testsuites/flaws', undefined, teamToken);
        return r.body.done ? r.body : undefined;
      },
      120_000,
    );
    for (const s of status.servers) expect(s.progress).toEqual({ queued: 0, active: 0, done: SAMPLE, failed: 0 });
    const stored = await ms.database.db.query<{ n: number }>('select count(*)::int as n from answers where server_id = $1', [
      copies[0].serverId,
    ]);
    expect(stored[0].n).toBe(SAMPLE);
    expect(flawed.requests).toBeGreaterThanOrEqual(SAMPLE);
  }, 150_000);

  it("ranks exactly the flawed tagger's fault classes worst", async () => {
    const q = `server=${flawedId}&singles=${SINGLES.join(',')}&${BY.map((b) => `by=${b}`).join('&')}`;
    const res = await ms.request('GET', `/api/testsuites/flaws/report?${q}`, undefined, teamToken);
    expect(res.status).toBe(200);
    const report = res.body as { pending: string[]; classes: ClassScore[]; server: { serverId: number } };
    expect(report.server.serverId).toBe(copies[0].serverId);
    expect(report.pending).toEqual([]);
    const withGold = report.classes.filter((c) => c.gold > 0);
    const zero = withGold.filter((c) => c.strict.f === 0);
    for (const key of WORST) {
      const c = report.classes.find((k) => k.key === key)!;
      expect(c.strict.r, key).toBe(0);
      expect(zero).toContainEqual(c);
    }
    expect(report.classes.slice(0, zero.length)).toEqual(zero);
    for (const c of withGold) {
      const members = items.flatMap((it) => it.mentions.map((_, i) => [it, i] as const)).filter(([it, i]) => inClass(it, i, c));
      expect(members.length, c.key).toBe(c.gold);
      expect(c.strict.f === 0, c.key).toBe(members.every(([it, i]) => isFault(it, i)));
    }
  });

  it('gives the perfect tagger F = 1 in every class, by its copy id as well, and TSV on request', async () => {
    const res = await ms.request('GET', `/api/testsuites/flaws/report?server=${copies[1].serverId}&by=${BY[1]}`, undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.overall.strict.f).toBe(1);
    for (const c of (res.body.classes as ClassScore[]).filter((k) => k.gold > 0)) expect(c.strict.f, c.key).toBe(1);
    expect(res.body.falsePositives).toEqual([]);
    const tsv = await ms.app!.inject({
      url: `/api/testsuites/flaws/report?server=${perfectId}&format=tsv`,
      headers: { authorization: `Bearer ${teamToken}` },
    });
    expect(tsv.headers['content-type']).toMatch(/^text\/tab-separated-values/);
    expect(tsv.body.split('\n')[1]).toMatch(/^\(all\)\t\d+\t\d+\t300\t1\t1\t1\t/);
  });

  it('renders the HTML report with the worst class first', async () => {
    const q = `server=${flawedId}&singles=${SINGLES.join(',')}&${BY.map((b) => `by=${b}`).join('&')}`;
    const page = await ms.app!.inject({ url: `/testsuites/flaws/report?${q}`, headers: { authorization: `Bearer ${teamToken}` } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const rows = [...page.body.matchAll(/<th scope="row">([^<]*)<\/th>/g)].map((m) => m[1].replaceAll('&amp;', '&'));
    expect(rows[0]).toBe('(all)');
    expect(WORST).toContain(rows[1]);
    expect(page.body).toContain('<caption>');
    expect((await ms.app!.inject({ url: `/testsuites/flaws/report?server=${flawedId}` })).statusCode).toBe(401);
    const openapi = await ms.request('GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).toContain('/api/testsuites/{name}/report');
    expect(Object.keys(openapi.body.paths)).not.toContain('/testsuites/{name}/report');
  });
});
