// Uploads that must be refused whole, the offline run limit, bad bodies and tasks, and
// the homonym-ortholog / organism maps. No annotation server is needed: offline runs
// carry every figure here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { expectFigures, send, tsv } from './helpers.ts';
import { storedGold } from '../support/stored-gold.ts';

const GOLD = tsv([
  ['d1', 'P37840'],
  ['d2', 'P04637'],
]);

let ms: TestMetaserver;
let team: { id: number; token: string };

async function offlineRuns(): Promise<number> {
  return (await ms.database.db.query<{ n: number }>('select count(*)::int as n from offline_runs'))[0].n;
}

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('errs', { name: 'Errors', tasks: ['INT', 'IPT', 'MENTION'] });
  team = await ms.team('Team E');
  expect((await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(200);
});
afterAll(async () => {
  await ms?.stop();
});

describe('gold standard uploads', () => {
  it('refuses a bad line with its number and keeps the old gold', async () => {
    const bad = await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: 'd1\tP37840\nd2\tP04637\nd3\n', token: ADMIN_TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 3/);
    expect(bad.json.error.details).toMatchObject({ line: 3 });
    expect(await storedGold(ms, 'errs', 'INT')).toBe(GOLD);
  });

  it('replaces the gold wholly', async () => {
    const next = tsv([['d9', 'Q13547']]);
    const res = await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: next, token: ADMIN_TOKEN });
    expect(res.json).toMatchObject({ documents: 1, items: 1, unknownDocuments: 1 });
    expect(await storedGold(ms, 'errs', 'INT')).toBe(next);
    expect((await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(200);
  });

  it('refuses invalid UTF-8, empty bodies and JSON for a TSV task', async () => {
    const bytes = Buffer.concat([Buffer.from('d1\tP37840\nd2\t'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]);
    const utf8 = await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: bytes, token: ADMIN_TOKEN });
    expect(utf8.status).toBe(400);
    expect(utf8.json.error.code).toBe('invalid_utf8');
    expect((await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: '', token: ADMIN_TOKEN })).status).toBe(400);
    const json = await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: { documents: {} }, token: ADMIN_TOKEN });
    expect(json.status).toBe(400);
    expect(json.json.error.message).toMatch(/text\/tab-separated-values/);
    expect(await storedGold(ms, 'errs', 'INT')).toBe(GOLD);
    // Plain text is strict UTF-8 everywhere, not only on the scoring routes (a route without a
    // body schema, POST /api/admin/backup, took bad bytes when fastify's default parser stayed).
    const elsewhere = await send(ms, 'POST', '/api/teams', { body: bytes, type: 'text/plain', token: ADMIN_TOKEN });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.error.code).toBe('invalid_utf8');
  });

  it('refuses unknown tasks, tasks outside the challenge, and non-organisers', async () => {
    const unknown = await send(ms, 'PUT', '/api/challenges/errs/gold/FOO', { body: GOLD, token: ADMIN_TOKEN });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toMatch(/ACT, INT, IPT, MENTION, COREF/);
    expect((await send(ms, 'PUT', '/api/challenges/errs/gold/ACT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(400);
    expect((await send(ms, 'PUT', '/api/challenges/nope/gold/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(404);
    expect((await send(ms, 'PUT', '/api/challenges/errs/gold/INT', { body: GOLD, token: team.token })).status).toBe(403);
    expect((await send(ms, 'GET', '/api/challenges/errs/scores/FOO', { token: ADMIN_TOKEN })).status).toBe(400);
  });

  it('takes MENTION gold as JSON brat standoff per document', async () => {
    const body = { documents: { d1: { ann: 'T1\tprotein 0 5\tBRCA1\nT2\tprotein 10 14\tTP53' }, d2: { ann: '' } } };
    const res = await send(ms, 'PUT', '/api/challenges/errs/gold/MENTION', { body, token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ documents: 2, items: 2 });
    const bad = await send(ms, 'PUT', '/api/challenges/errs/gold/MENTION', {
      body: { documents: { d1: { ann: 'T1\tprotein zero 5\tx' } } },
      token: ADMIN_TOKEN,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details).toMatchObject({ file: 'documents["d1"].ann', line: 1 });
  });
});

describe('offline runs', () => {
  it('refuses a bad run with its line and stores nothing', async () => {
    const before = await offlineRuns();
    const bad = await send(ms, 'POST', '/api/challenges/errs/runs/INT', {
      body: 'd1\tP37840\t1\t0.9\nd1\tP04637\t1\t0.8\n',
      token: team.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 2: duplicate rank 1/);
    const columns = await send(ms, 'POST', '/api/challenges/errs/runs/INT?columns=both', { body: GOLD, token: team.token });
    expect(columns.status).toBe(400);
    expect(await offlineRuns()).toBe(before);
    expect((await send(ms, 'POST', '/api/challenges/errs/runs/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(403);
  });

  it('takes five runs per team and task, and refuses the sixth', async () => {
    for (let n = 1; n <= 5; n++) {
      const res = await send(ms, 'POST', '/api/challenges/errs/runs/INT?columns=order', { body: GOLD, token: team.token });
      expect(res.status).toBe(201);
      expect(res.json.run).toBe(`T${team.id}_R${n}`);
    }
    const sixth = await send(ms, 'POST', '/api/challenges/errs/runs/INT?columns=order', { body: GOLD, token: team.token });
    expect(sixth.status).toBe(409);
    expect(sixth.json.error.message).toMatch(/5 offline INT runs/);
    expect(await offlineRuns()).toBe(5);
    // The limit is per task.
    expect(
      (await send(ms, 'POST', '/api/challenges/errs/runs/IPT?columns=order', { body: 'd1\tP37840\tP04637\n', token: team.token })).status,
    ).toBe(201);
  });
});

describe('homonym-ortholog and organism maps', () => {
  it('maps orthologs to gold accessions and filters by organism on request', async () => {
    await send(ms, 'PUT', '/api/challenges/errs/gold/IPT', { body: tsv([['m1', 'P37840', 'P04637']]), token: ADMIN_TOKEN });
    const noMap = await send(ms, 'GET', '/api/challenges/errs/scores/IPT?ho=1', { token: ADMIN_TOKEN });
    expect(noMap.status).toBe(400);
    expect(noMap.json.error.message).toMatch(/maps\/ho/);

    expect((await send(ms, 'PUT', '/api/challenges/errs/maps/ho', { body: 'P37840\tQ00001,Q00002\n', token: ADMIN_TOKEN })).json).toEqual({
      kind: 'ho',
      entries: 1,
    });
    const bad = await send(ms, 'PUT', '/api/challenges/errs/maps/of', { body: 'P37840\t9606\nP37840\t10090\n', token: ADMIN_TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 2/);
    const of = tsv([
      ['P37840', '9606'],
      ['P04637', '9606'],
      ['Q00001', '10090'],
    ]);
    expect((await send(ms, 'PUT', '/api/challenges/errs/maps/of', { body: of, token: ADMIN_TOKEN })).json).toEqual({
      kind: 'of',
      entries: 3,
    });

    // The pair (Q00001, P04637): an ortholog of P37840 with the gold partner.
    await send(ms, 'POST', '/api/challenges/errs/runs/IPT?columns=rank', { body: 'm1\tQ00001\tP04637\t1\n', token: team.token });
    const row = async (query: string) => {
      const res = await send(ms, 'GET', `/api/challenges/errs/scores/IPT${query}`, { token: ADMIN_TOKEN });
      expect(res.status).toBe(200);
      return res.json.runs.find((r: { run: string }) => r.run === `T${team.id}_R2`).metrics;
    };
    expectFigures(await row(''), { evaluatedDocs: 1, macro: { p: 0, f: 0 } });
    expectFigures(await row('?ho=1'), { evaluatedDocs: 1, tp: 1, macro: { p: 1, r: 1, f: 1 } });
    // Q00001 is a mouse accession, m1's gold is human: the pair goes, and m1 with it.
    expectFigures(await row('?of=1'), { evaluatedDocs: 0 });
    expectFigures(await row('?ho=1&of=1'), { evaluatedDocs: 1, tp: 1 });
  });

  it('publishes the routes in the OpenAPI description', async () => {
    const doc = await send(ms, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining(['/api/challenges/{slug}/scores/{task}', '/api/challenges/{slug}/gold/{task}']),
    );
  });

  it('refuses options that do not apply and bad option values', async () => {
    expect((await send(ms, 'GET', '/api/challenges/errs/scores/MENTION?cutoff=3', { token: ADMIN_TOKEN })).status).toBe(400);
    expect((await send(ms, 'GET', '/api/challenges/errs/scores/INT?cutoff=0', { token: ADMIN_TOKEN })).status).toBe(400);
    expect((await send(ms, 'GET', '/api/challenges/errs/scores/INT?beta=0', { token: ADMIN_TOKEN })).status).toBe(400);
    expect((await send(ms, 'GET', '/api/challenges/errs/scores/INT?format=xml', { token: ADMIN_TOKEN })).status).toBe(400);
  });
});
