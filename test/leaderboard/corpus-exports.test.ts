// The organiser's own exports. A real BioC corpus (three documents of BC5CDR's official test
// file, with a discontinuous individual mention and CID relations) loaded as articles and as
// MENTION gold comes back from the gold export the same, document by document and annotation
// by annotation — ids, infons, every location, relations with their nodes, the collection's
// source, date and key — read on both sides by a general XML parser, not ours, and valid
// against the BioC DTD. Its PubTator export is BC5CDR's own PubTator release of the same three
// documents, line for line (the individual mentions become the composite's seventh column).
// The articles as loaded and every export keep the corpus's order (load order, not ids sorted
// as strings); a MENTION gold loaded as brat exports on the articles' texts; teams may not.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../src/cli/export.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send } from './helpers.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const CDR_BIOC = readFileSync(join(fixtures, 'bioc', 'cdr-test-3.xml'), 'utf8');
const CDR_PUBTATOR = readFileSync(join(fixtures, 'pubtator', 'cdr-test-3.txt'), 'utf8');
const LISTS = new Set(['document', 'passage', 'annotation', 'location', 'infon', 'relation', 'node', 'sentence']);

type Node = Record<string, unknown>;
const list = (n: unknown): Node[] => (Array.isArray(n) ? (n as Node[]) : []);
const infons = (n: Node): Record<string, string> =>
  Object.fromEntries(list(n.infon).map((i) => [String(i['@_key']), String(i['#text'] ?? '')]));
const annotation = (a: Node) => ({
  id: String(a['@_id']),
  infons: infons(a),
  locations: list(a.location).map((l) => ({ offset: Number(l['@_offset']), length: Number(l['@_length']) })),
  text: String(a.text ?? ''),
});
const relation = (r: Node) => ({
  id: String(r['@_id']),
  infons: infons(r),
  nodes: list(r.node).map((n) => ({ refid: String(n['@_refid']), role: String(n['@_role'] ?? '') })),
});

/** A BioC XML collection as plain data, read by a general XML parser: what must survive a round trip. */
function biocShape(xml: string) {
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => LISTS.has(name) }).parse(xml) as {
    collection: Node;
  };
  const c = parsed.collection;
  return {
    source: c.source,
    date: c.date,
    key: c.key,
    infons: infons(c),
    documents: list(c.document).map((d) => ({
      id: String(d.id),
      infons: infons(d),
      passages: list(d.passage).map((p) => ({
        offset: Number(p.offset),
        infons: infons(p),
        text: String(p.text ?? ''),
        annotations: list(p.annotation).map(annotation),
        relations: list(p.relation).map(relation),
      })),
      relations: list(d.relation).map(relation),
    })),
  };
}

describe("the organiser's own exports", () => {
  let ms: TestMetaserver;
  const scratch = mkdtempSync(join(tmpdir(), 'corpus-exports-'));

  beforeAll(async () => {
    ms = await startTestMetaserver();
    await ms.challenge('cdr', { tasks: ['MENTION'] });
    await ms.articles('cdr', { bioc: CDR_BIOC, file: 'cdr-test-3.xml' });
    const gold = await send(ms, 'PUT', '/api/challenges/cdr/gold/MENTION', { body: CDR_BIOC, type: 'application/xml', token: ADMIN_TOKEN });
    expect(gold.status, gold.text).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('gives a BioC corpus back as it was loaded, annotation by annotation, and valid against the DTD', async () => {
    const exported = await send(ms, 'GET', '/api/challenges/cdr/gold/MENTION/export/bioc-xml', { token: ADMIN_TOKEN });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.json).toMatchObject({ challenge: 'cdr', task: 'MENTION', format: 'bioc-xml', documents: 3, leftOut: [] });
    const content: string = exported.json.files[0].content;
    const original = biocShape(CDR_BIOC);
    const back = biocShape(content);
    expect(back.documents.map((d) => d.id)).toEqual(['23949582', '24100055', '24220752']);
    for (const [k, doc] of original.documents.entries()) expect(back.documents[k], `document ${doc.id}`).toEqual(doc);
    expect({ ...back, documents: [] }).toEqual({ ...original, documents: [] });
    // The discontinuous individual mention keeps both its locations and its written text.
    const pieces = back.documents[1].passages.flatMap((p) => p.annotations).find((a) => a.locations.length === 2);
    expect(pieces).toMatchObject({
      text: 'end-stage liver disease',
      locations: [
        { offset: 914, length: 9 },
        { offset: 937, length: 13 },
      ],
    });

    const file = join(scratch, 'gold.xml');
    writeFileSync(file, content);
    copyFileSync(join(fixtures, 'bioc', 'BioC.dtd'), join(scratch, 'BioC.dtd'));
    const lint = spawnSync('xmllint', ['--noout', '--dtdvalid', join(fixtures, 'bioc', 'BioC.dtd'), file], { encoding: 'utf8' });
    expect(lint.error, 'xmllint (libxml2-utils) must be installed').toBeUndefined();
    expect(lint.stderr).toBe('');
  });

  it("writes the BioC gold as PubTator line for line as BC5CDR's own PubTator release of the same documents", async () => {
    const exported = await send(ms, 'GET', '/api/challenges/cdr/gold/MENTION/export/pubtator', { token: ADMIN_TOKEN });
    expect(exported.status, exported.text).toBe(200);
    const lines = (text: string) => text.split('\n').filter((l) => l !== '');
    const written: string[] = lines(exported.json.files[0].content);
    // Relations may come in another order than the release's; the rest is line for line.
    const isRelation = (l: string) => l.split('\t')[1] === 'CID';
    expect(written.filter((l) => !isRelation(l))).toEqual(lines(CDR_PUBTATOR).filter((l) => !isRelation(l)));
    expect(written.filter(isRelation).sort()).toEqual(lines(CDR_PUBTATOR).filter(isRelation).sort());
    expect(exported.json.leftOut).toEqual([]);
  });

  it('keeps load order in the articles export and in every answer export, not ids sorted as strings', async () => {
    await ms.challenge('order', { tasks: ['MENTION'] });
    await ms.articles('order', [
      { id: '8701013', text: 'First loaded.' },
      { id: '10087562', text: 'Second loaded.' },
    ]);
    const exported = await send(ms, 'GET', '/api/challenges/order/articles/export/pubtator', { token: ADMIN_TOKEN });
    expect(exported.status, exported.text).toBe(200);
    const ids = [...String(exported.json.files[0].content).matchAll(/^(\d+)\|t\|/gm)].map((m) => m[1]);
    expect(ids).toEqual(['8701013', '10087562']);
    const bioc = await send(ms, 'GET', '/api/challenges/cdr/articles/export/bioc-json', { token: ADMIN_TOKEN });
    const docs = JSON.parse(bioc.json.files[0].content).documents as Array<{
      id: string;
      passages: Array<{ infons: Record<string, string> }>;
    }>;
    expect(docs.map((d) => d.id)).toEqual(['23949582', '24100055', '24220752']);
    expect(docs[0].passages.map((p) => p.infons.type)).toEqual(['title', 'abstract']);
  });

  it('exports a MENTION gold loaded as brat on the articles, and names a gold document without an article', async () => {
    await ms.challenge('brat', { tasks: ['MENTION'] });
    await ms.articles('brat', [{ id: 'd1', text: 'Aspirin helps.' }]);
    const gold = { documents: { d1: { ann: 'T1\tChemical 0 7\tAspirin\nN1\tReference T1 MESH:D001241\tAspirin' }, d9: { ann: '' } } };
    expect((await send(ms, 'PUT', '/api/challenges/brat/gold/MENTION', { body: gold, token: ADMIN_TOKEN })).status).toBe(200);
    const exported = await send(ms, 'GET', '/api/challenges/brat/gold/MENTION/export/pubannotation', { token: ADMIN_TOKEN });
    expect(exported.status, exported.text).toBe(200);
    expect(JSON.parse(exported.json.files[0].content)).toMatchObject({
      text: 'Aspirin helps.',
      sourcedb: 'brat',
      sourceid: 'd1',
      denotations: [{ id: 'T1', span: { begin: 0, end: 7 }, obj: 'Chemical' }],
      attributes: [{ subj: 'T1', pred: 'identifier', obj: 'MESH:D001241' }],
    });
    expect(exported.json.leftOut).toEqual([{ document: 'd9', what: expect.stringMatching(/no article of the challenge has this id/) }]);
  });

  it('is for the organiser: a team is refused, a task without gold is not found, and the CLI writes the file', async () => {
    const team = await ms.team('Curious');
    expect((await send(ms, 'GET', '/api/challenges/cdr/gold/MENTION/export/bioc-json', { token: team.token })).status).toBe(403);
    expect((await send(ms, 'GET', '/api/challenges/cdr/articles/export/bioc-json', { token: team.token })).status).toBe(403);
    expect((await send(ms, 'GET', '/api/challenges/order/gold/MENTION/export/bioc-json', { token: ADMIN_TOKEN })).status).toBe(404);

    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const out = join(scratch, 'cli.pubtator');
    const said: string[] = [];
    const io = { stdout: (s: string) => void said.push(s), stderr: (s: string) => void said.push(s), env: {} };
    const argv = [
      '--challenge',
      'cdr',
      '--task',
      'MENTION',
      '--gold',
      '--format',
      'pubtator',
      '--out',
      out,
      '--url',
      address,
      '--token',
      ADMIN_TOKEN,
    ];
    expect(await runExportCommand(argv, io), said.join('')).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(
      /^23949582\t297\t317\themorrhagic cystitis\tDisease\tD006470\|D003556\themorrhagic\|cystitis$/m,
    );
    expect(await runExportCommand(['--challenge', 'cdr', '--gold', '--format', 'pubtator', '--out', out], io)).toBe(2);
    expect(said.join('')).toMatch(/--task is needed with --server and --gold/);
  });
});
