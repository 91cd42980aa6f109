// The whole journey with a corpus in BioC: the organiser loads the PubTator API's BioC
// JSON of an article and, from the same file, the MENTION gold; a PubAnnotation annotator
// on loopback answers; the leaderboard scores its answer against that gold (figures
// counted by hand below); the BioC XML export validates against the BioC DTD and Python's
// ElementTree finds every exported mention's text at its location; the export has the
// file's passages and section names (stored with the article), the PubTator export its
// title and abstract lines.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { readBiocXml } from '../../src/formats/bioc-xml.ts';
import { expectFigures, send } from '../leaderboard/helpers.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
// Whole words and the type the annotator gives them.
const TAGS: Array<[string, string]> = [
  ['mice', 'Species'],
  ['osteoarthritis', 'Disease'],
  ['IKKbeta', 'Gene'],
  ['cartilage', 'Tissue'],
];

function tagger(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { text } = JSON.parse(body) as { text: string };
      const denotations = TAGS.flatMap(([word, obj]) =>
        [...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))].map((m) => ({ begin: m.index, end: m.index + word.length, obj })),
      );
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          text,
          denotations: denotations.map((d, i) => ({ id: `T${i + 1}`, span: { begin: d.begin, end: d.end }, obj: d.obj })),
        }),
      );
    });
  });
}

describe('a BioC corpus from loading to leaderboard and export', () => {
  let ms: TestMetaserver;
  let server: Server;
  let url: string;
  const scratch = mkdtempSync(join(tmpdir(), 'corpus-journey-'));

  beforeAll(async () => {
    ms = await startTestMetaserver();
    server = tagger();
    url = `http://127.0.0.1:${(await listenOnLoopback(server)).port}/`;
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
    server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('loads, annotates, scores and exports', { timeout: 60_000 }, async () => {
    const doc = JSON.parse(readFileSync(join(fixtures, 'bioc', 'pubtator-api-34546791.json'), 'utf8'));
    doc.id = '34546791'; // the file names the article by its DOI, which holds a "/"
    await ms.challenge('journey', { name: 'Journey', tasks: ['MENTION'] });
    await ms.articles('journey', { bioc: doc, file: 'pubtator-api.json' });
    const gold = await send(ms, 'PUT', '/api/challenges/journey/gold/MENTION', { body: doc, token: ADMIN_TOKEN });
    expect(gold.json).toMatchObject({ documents: 1, items: 41, unknownDocuments: 0 });

    const team = await ms.team('Taggers');
    const registered = await ms.server('journey', team.token, { name: 'words', url, protocol: 'pubannotation', tasks: ['MENTION'] });
    const serverId = registered.id;
    await ms.startServer(serverId, team.token);
    await waitFor('the answer', async () => {
      const a = (await ms.request('GET', '/api/challenges/journey/articles/34546791?text=false', undefined, ADMIN_TOKEN)).body;
      return a.status === 'done' ? a : undefined;
    });

    // By hand: the article has "mice" 5 times, "osteoarthritis" 2, "IKKbeta" 5, all in the
    // gold with those types: 12 TP; "cartilage" 3 times as Tissue, never so in the gold: 3 FP;
    // 41 − 12 = 29 gold mentions missed. P = 12/15, R = 12/41, F = 24 / (24 + 3 + 29) = 3/7.
    const board = (await ms.request('GET', '/api/challenges/journey/scores/MENTION', undefined, ADMIN_TOKEN)).body;
    const row = board.runs.find((r: { kind: string }) => r.kind === 'S');
    expectFigures(row.metrics.strict, { tp: 12, fp: 3, fn: 29, p: 0.8, r: 12 / 41, f: 3 / 7 });

    const exported = await ms.request('GET', `/api/challenges/journey/export/MENTION/bioc-xml?server=${serverId}`, undefined, ADMIN_TOKEN);
    expect(exported.status).toBe(200);
    const file = join(scratch, 'journey.xml');
    writeFileSync(file, exported.body.files[0].content);
    copyFileSync(join(fixtures, 'bioc', 'BioC.dtd'), join(scratch, 'BioC.dtd'));
    const lint = spawnSync('xmllint', ['--noout', '--dtdvalid', join(fixtures, 'bioc', 'BioC.dtd'), file], { encoding: 'utf8' });
    expect(lint.error, 'xmllint (libxml2-utils) must be installed').toBeUndefined();
    expect(lint.stderr).toBe('');
    const python = spawnSync('python3', [join(import.meta.dirname, 'bioc_check.py'), file], { encoding: 'utf8' });
    expect(python.stderr).toBe('');
    expect(JSON.parse(python.stdout)).toEqual({ documents: 1, annotations: 15, mismatches: 0 });

    // Stored with its passages: the export has the file's passages, offsets and section names again.
    const passages = readBiocXml(exported.body.files[0].content).documents[0].passages;
    expect(passages.map((p) => ({ offset: p.offset, text: p.text, type: p.infons.type }))).toEqual(
      doc.passages.map((p: { offset: number; text: string; infons: { type: string } }) => ({
        offset: p.offset,
        text: p.text,
        type: p.infons.type,
      })),
    );
    const pubtator = await ms.request('GET', `/api/challenges/journey/export/MENTION/pubtator?server=${serverId}`, undefined, ADMIN_TOKEN);
    expect(pubtator.body.files[0].content.split('\n').slice(0, 2)).toEqual([
      `34546791|t|${doc.passages[0].text}`,
      `34546791|a|${doc.passages[1].text}`,
    ]);
  });
});
