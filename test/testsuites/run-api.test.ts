// The test-suite run API besides the main run: an uploaded suite (the fp bait sentences,
// with the flawed tagger's false positive listed in JSON and HTML), the refusals (a query
// that does not parse, a server without MENTION, a taken name, another team's server)
// leaving nothing behind, and `metaserver testsuite run --wait` against a listening server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsuiteCommand } from '../../src/cli/testsuite.ts';
import { loadBuiltInCatalogue } from '../../src/testsuites/catalogue-io.ts';
import { generateSuite } from '../../src/testsuites/generate.ts';
import { suiteDocument } from '../../src/testsuites/suite-document.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { baitMentions } from './run-helpers.ts';

describe('test-suite run API', () => {
  let ms: TestMetaserver;
  let tagger: FaultyServer;
  let team: string;
  let otherTeam: string;
  let taggerId: number;
  let actOnlyId: number;
  let baseUrl: string;

  beforeAll(async () => {
    // Answers every text: tags "QoL" (a false positive on the bait sentence) and nothing else.
    tagger = await startFaultyServer({ kind: 'custom', handler: (text) => ({ mentions: baitMentions(text) }) });
    ms = await startTestMetaserver();
    await ms.challenge('c2', { name: 'C2', tasks: ['ACT', 'MENTION'] });
    team = (await ms.team('Team one')).token;
    otherTeam = (await ms.team('Team two')).token;
    taggerId = (await ms.server('c2', team, { name: 'qol', url: tagger.url, tasks: ['MENTION'] })).id;
    actOnlyId = (await ms.server('c2', team, { name: 'act', url: tagger.url, tasks: ['ACT'] })).id;
    baseUrl = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
    await tagger?.close();
  });

  const finished = (name: string) =>
    waitFor(
      `${name} to finish`,
      async () => {
        const r = await ms.request('GET', `/api/testsuites/${name}`, undefined, ADMIN_TOKEN);
        return r.body.done ? r.body : undefined;
      },
      50_000,
    );

  it('runs an uploaded suite and lists the false positives on fp sentences', async () => {
    const { sentences } = await loadBuiltInCatalogue();
    const baits = generateSuite(
      [],
      sentences.filter((s) => s.type === 'fp'),
    );
    const suite = suiteDocument(baits, { note: 'bait sentences only' });
    const res = await ms.request('POST', '/api/testsuites', { name: 'baits', suite, servers: [taggerId] }, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    expect(res.body.items).toBe(baits.items.length);
    const status = await finished('baits');
    expect(status.made).toMatchObject({ note: 'bait sentences only', uploaded: true });
    const report = await ms.request('GET', '/api/testsuites/baits/report', undefined, ADMIN_TOKEN);
    expect(report.body.falsePositives.map((f: { mentions: { text: string }[] }) => f.mentions.map((m) => m.text))).toEqual([['QoL']]);
    expect(report.body.fpSentences).toMatchObject({ items: baits.items.length, withFalsePositives: 1, mentions: 1 });
    const page = await ms.app!.inject({ url: '/testsuites/baits/report', headers: { authorization: `Bearer ${team}` } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<mark>QoL</mark>');
    // Another team sees neither the run nor its report.
    expect((await ms.request('GET', '/api/testsuites/baits', undefined, otherTeam)).status).toBe(404);
    expect((await ms.request('GET', '/api/testsuites/baits/report', undefined, otherTeam)).status).toBe(404);
  }, 60_000);

  it('refuses bad runs with 400, 403 or 409 and writes nothing', async () => {
    const bad = await ms.request(
      'POST',
      '/api/testsuites',
      { name: 'bad', entityQuery: 'case=lower-initial AND (kind=symbol', servers: [taggerId] },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toMatchObject({ field: 'entityQuery', position: 35 });
    expect(bad.body.error.message).toMatch(/column 36/);
    const unknownFeature = await ms.request(
      'POST',
      '/api/testsuites',
      { name: 'bad', sentenceQuery: 'colour=red', servers: [taggerId] },
      ADMIN_TOKEN,
    );
    expect(unknownFeature.body.error.details).toMatchObject({ field: 'sentenceQuery', position: 0 });
    const noMention = await ms.request('POST', '/api/testsuites', { name: 'bad', sample: 5, servers: [actOnlyId] }, ADMIN_TOKEN);
    expect(noMention.status).toBe(400);
    expect(noMention.body.error.message).toMatch(/does not offer MENTION/);
    const foreign = await ms.request('POST', '/api/testsuites', { name: 'bad', sample: 5, servers: [taggerId] }, otherTeam);
    expect(foreign.status).toBe(403);
    expect((await ms.request('POST', '/api/testsuites', { name: 'bad', sample: 5, servers: [taggerId] })).status).toBe(401);
    const taken = await ms.request('POST', '/api/testsuites', { name: 'baits', sample: 5, seed: 'x', servers: [taggerId] }, ADMIN_TOKEN);
    expect(taken.status).toBe(409);
    const badUpload = await ms.request(
      'POST',
      '/api/testsuites',
      { name: 'bad', suite: { format: 'metaserver-testsuite', items: [{ id: 'a b' }] }, servers: [taggerId] },
      ADMIN_TOKEN,
    );
    expect(badUpload.status).toBe(400);
    expect((await ms.request('GET', '/api/challenges/suite-bad')).status).toBe(404);
    const counts = await ms.database.db.query<{ n: number }>('select count(*)::int as n from testsuites');
    expect(counts[0].n).toBe(1);
  });

  it('metaserver testsuite run --wait prints the report; a bad query exits 2', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
    const code = await runTestsuiteCommand(
      [
        'run',
        '--url',
        baseUrl,
        '--token',
        team,
        '--name',
        'cli',
        '--server',
        String(taggerId),
        '--sample',
        '12',
        '--seed',
        'cli',
        '--wait',
        '--format',
        'tsv',
        '--interval',
        '100',
        '--timeout',
        '50',
        '--by',
        'case,slot.position',
      ],
      io,
    );
    expect(err.join('')).toMatch(/created test suite cli \(12 items\)/);
    expect(code).toBe(0);
    const lines = out.join('').split('\n');
    expect(lines[0].split('\t').slice(0, 3)).toEqual(['class', 'gold', 'responses']);
    expect(lines[1]).toMatch(/^\(all\)\t\d+\t0\t12\t/);
    expect(lines.some((l) => /^case=\S+ & slot\.position=[IMF]\t/.test(l))).toBe(true);

    // A suite generated offline, uploaded by --suite (without --wait: the created run is printed).
    const dir = await mkdtemp(join(tmpdir(), 'suite-'));
    expect(await runTestsuiteCommand(['generate', '--sample', '5', '--seed', 'up', '--out', dir], io)).toBe(0);
    out.length = 0;
    expect(
      await runTestsuiteCommand(
        ['run', '--url', baseUrl, '--token', team, '--name', 'uploaded', '--server', String(taggerId), '--suite', dir],
        io,
      ),
    ).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ name: 'uploaded', items: 5 });
    await rm(dir, { recursive: true, force: true });

    err.length = 0;
    const bad = await runTestsuiteCommand(
      ['run', '--url', baseUrl, '--token', team, '--name', 'cli2', '--server', String(taggerId), '--entity-query', 'kind='],
      io,
    );
    expect(bad).toBe(2);
    expect(err.join('')).toMatch(/entityQuery: expected a value after "="/);
  }, 60_000);
});
