// Gold standards and runs from the corpus itself: MENTION gold from PubTator lines or BioC
// annotations (type from the column / infon), TX gold from Species identifiers, a MENTION
// run as PubTator, scored on the leaderboard; BioC JSON lines; every refusal names the
// document (or line) and stores nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { expectFigures, send } from '../leaderboard/helpers.ts';
import { storedGold } from '../support/stored-gold.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const CDR = fixture('pubtator/cdr-sample-4.txt');
let ms: TestMetaserver;
let team: { token: string };

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('gold', { name: 'Gold', tasks: ['MENTION', 'TX', 'INT'] });
  await ms.articles('gold', { pubtator: CDR });
  team = await ms.team('Corpus team');
});
afterAll(async () => {
  await ms?.stop();
});

describe('gold standards from the corpus', () => {
  it('MENTION gold from PubTator text: every annotation line is a mention of its type; relations named as left out', async () => {
    const res = await send(ms, 'PUT', '/api/challenges/gold/gold/MENTION', { body: CDR, type: 'text/plain', token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ documents: 4, items: 65, unknownDocuments: 0 });
    expect(res.json.warnings).toEqual([expect.stringMatching(/11 relation\(s\) were left out/)]);
    const gold = JSON.parse((await storedGold(ms, 'gold', 'MENTION'))!);
    // Each mention's ids follow its T line as brat normalization lines.
    expect(gold.documents['354896'].ann.split('\n').slice(2, 4)).toEqual([
      'T2\tDisease 18 34\tcardiac asystole',
      'N2\tReference T2 MESH:D006323\tcardiac asystole',
    ]);
  });

  it('MENTION gold whose id column is written wrong ("D001943|", "MESH:"): refused naming the document and line, nothing stored', async () => {
    const before = await storedGold(ms, 'gold', 'MENTION');
    for (const [column, reason] of [
      ['D006323|', /line 19: the id identifier "D006323\|" holds an empty id/],
      ['MESH:', /line 19: .*"MESH:" has no accession after the namespace/],
    ] as const) {
      const bad = CDR.replace('354896\t18\t34\tcardiac asystole\tDisease\tD006323', `354896\t18\t34\tcardiac asystole\tDisease\t${column}`);
      expect(bad).not.toBe(CDR);
      const res = await send(ms, 'PUT', '/api/challenges/gold/gold/MENTION', { body: bad, type: 'text/plain', token: ADMIN_TOKEN });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        code: 'invalid_corpus',
        message: expect.stringMatching(/document 354896: .*nothing was stored/),
        details: [{ file: 'the gold standard', document: '354896', reason: expect.stringMatching(reason) }],
      });
    }
    expect(await storedGold(ms, 'gold', 'MENTION')).toBe(before);
  });

  it('a run as PubTator is scored against it: F checked by hand', async () => {
    // Leave out document 26094's 11 mentions and add one spurious mention ("induced").
    const run = CDR.split('\n\n')
      .filter((d) => !d.startsWith('26094|'))
      .map((d) => (d.startsWith('354896|') ? `${d.trimEnd()}\n354896\t10\t17\tinduced\tChemical\t-` : d))
      .join('\n\n');
    const up = await send(ms, 'POST', '/api/challenges/gold/runs/MENTION?format=pubtator', {
      body: run,
      type: 'text/plain',
      token: team.token,
    });
    expect(up.status, up.text).toBe(201);
    const board = (await ms.request('GET', '/api/challenges/gold/scores/MENTION', undefined, ADMIN_TOKEN)).body;
    const row = board.runs.find((r: { kind: string }) => r.kind === 'R');
    // TP 54 (65 - 11), FP 1, FN 11: P = 54/55, R = 54/65, F = 2·54 / (2·54 + 1 + 11) = 0.9.
    expectFigures(row.metrics.strict, { tp: 54, fp: 1, fn: 11, p: 54 / 55, r: 54 / 65, f: 0.9 });
  });

  it('MENTION gold from BioC JSON (the PubTator API document), TX gold from its Species annotations', async () => {
    const doc = JSON.parse(fixture('bioc/pubtator-api-34546791.json'));
    doc.id = '34546791';
    await ms.articles('gold', { bioc: doc });
    const mention = await send(ms, 'PUT', '/api/challenges/gold/gold/MENTION', { body: doc, token: ADMIN_TOKEN });
    expect(mention.status).toBe(200);
    const annotations = doc.passages.flatMap((p: { annotations: unknown[] }) => p.annotations).length;
    expect(mention.json).toMatchObject({ documents: 1, items: annotations });
    const tx = await send(ms, 'PUT', '/api/challenges/gold/gold/TX', {
      body: JSON.stringify(doc),
      type: 'application/json',
      token: ADMIN_TOKEN,
    });
    expect(tx.status).toBe(200);
    expect(tx.json).toMatchObject({ documents: 1, items: 1, unknownDocuments: 0 });
    expect(await storedGold(ms, 'gold', 'TX')).toBe('34546791\t10090\n');
  });

  it('TX gold from a corpus without species, INT gold from PubTator gene ids: refused, saying what the task takes', async () => {
    const tx = await send(ms, 'PUT', '/api/challenges/gold/gold/TX?format=pubtator', { body: CDR, type: 'text/plain', token: ADMIN_TOKEN });
    expect(tx.status).toBe(400);
    expect(tx.json.error.code).toBe('invalid_corpus');
    expect(tx.json.error.message).toMatch(/holds no annotation TX can use .*Species/);
    expect(await storedGold(ms, 'gold', 'TX')).toBe('34546791\t10090\n');
  });

  it('BioC XML gold (content type application/xml) with a document whose annotation does not fit its text: refused naming it, nothing stored', async () => {
    const before = await storedGold(ms, 'gold', 'MENTION');
    const xml = fixture('bioc/bioc-python-everything.xml').replace('<text>测试</text>', '<text>测验</text>');
    const res = await send(ms, 'PUT', '/api/challenges/gold/gold/MENTION', { body: xml, type: 'application/xml', token: ADMIN_TOKEN });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: 'invalid_corpus',
      details: [{ document: '2', reason: expect.stringContaining('annotation 4 says its text is "测验"') }],
    });
    expect(await storedGold(ms, 'gold', 'MENTION')).toBe(before);
  });

  it('gold as BioC JSON lines (application/x-ndjson, or text/plain): every line read; a bad line refused by its number, nothing stored', async () => {
    const doc = { ...JSON.parse(fixture('bioc/pubtator-api-34546791.json')), id: '34546791' };
    const lines = `${JSON.stringify(doc)}\n${JSON.stringify({ ...doc, id: 'elsewhere' })}\n`;
    const tx = await send(ms, 'PUT', '/api/challenges/gold/gold/TX', { body: lines, type: 'application/x-ndjson', token: ADMIN_TOKEN });
    expect(tx.status, tx.text).toBe(200);
    expect(tx.json).toMatchObject({ documents: 2, items: 2, unknownDocuments: 1 });
    const before = await storedGold(ms, 'gold', 'TX');
    const bad = await send(ms, 'PUT', '/api/challenges/gold/gold/TX', {
      body: `${lines}{"id": "x",\n`,
      type: 'text/plain',
      token: ADMIN_TOKEN,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'invalid_corpus', message: expect.stringMatching(/line 3: not JSON/) });
    expect(await storedGold(ms, 'gold', 'TX')).toBe(before);
  });
});
