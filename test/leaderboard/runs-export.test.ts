// Every run of a challenge in one download (GET /api/challenges/:slug/runs/export): the
// archive is streamed; it holds each offline run as stored, each server's online run as a
// result file, the gold, scores.tsv and the manifest; each run file scored with
// `metaserver score` against its gold file gives exactly its row of scores.tsv and of the
// scores API. Teams get it once the leaderboards are published; without any gold: 404.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../src/cli/export.ts';
import { flattenMetrics } from '../../src/scoring/index.ts';
import { captured } from '../support/captured-io.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { score } from '../support/score-cli.ts';
import { send, tsv } from './helpers.ts';

let ms: TestMetaserver;
let teamA = '';
let teamB = '';
let serverA = 0;
let serverB = 0;
const dirs: string[] = [];

const INT_GOLD = tsv([
  ['d1', 'P38398'],
  ['d1', 'P04637'],
  ['d2', 'P04637'],
  ['d3', 'Q00987'],
]);
const MENTION_GOLD = {
  documents: {
    d1: { ann: 'T1\tGene 0 5\tBRCA1\n' },
    d2: { ann: 'T1\tGene 0 3\tp53\nT2\tGene 10 14\tEGFR\n' },
    d3: { ann: '' },
  },
};

const exportRuns = (slug: string, token?: string) =>
  ms.app!.inject({ method: 'GET', url: `/api/challenges/${slug}/runs/export`, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The archive extracted into a new folder. */
function extract(archive: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'runs-export-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'all.tar.gz'), archive);
  execFileSync('tar', ['-xzf', 'all.tar.gz'], { cwd: dir });
  rmSync(join(dir, 'all.tar.gz'));
  return dir;
}

async function storeAnswers(serverId: number, answers: Record<string, object>): Promise<void> {
  const challenge = (await ms.ctx.repos.challenges.bySlug('rx'))!;
  for (const [doc, result] of Object.entries(answers)) {
    await ms.db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select a.id, $2, $4::jsonb, 1, 1, 1 from articles a where a.challenge_id = $1 and a.organiser_id = $3`,
      [challenge.id, serverId, doc, JSON.stringify(result)],
    );
  }
}

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('rx', { name: 'Runs export', tasks: ['INT', 'MENTION', 'TOPIC', 'REL'] });
  await ms.articles('rx', [
    { id: 'd1', text: 'BRCA1 (P38398) binds p53 (P04637).' },
    { id: 'd2', text: 'p53 binds EGFR here.' },
    { id: 'd3', text: 'CDK2 (Q00987) alone.' },
  ]);
  teamA = (await ms.team('Exporters A')).token;
  teamB = (await ms.team('Exporters B')).token;
  serverA = (await ms.server('rx', teamA, { name: 'tagger', url: 'http://127.0.0.1:9/', tasks: ['INT', 'MENTION'] })).id;
  serverB = (await ms.server('rx', teamB, { name: 'silent', url: 'http://127.0.0.1:9/', tasks: ['INT'] })).id;
  const put = async (task: string, body: string | object) =>
    expect((await send(ms, 'PUT', `/api/challenges/rx/gold/${task}`, { body, token: ADMIN_TOKEN })).status).toBe(200);
  await put('INT', INT_GOLD);
  await put('MENTION', MENTION_GOLD);
  await put('TOPIC', 'd1,Treatment\nd2,Diagnosis;Prevention\nd3,Mechanism\n');
  const run = async (task: string, body: string | object, token: string, query = '') => {
    const res = await send(ms, 'POST', `/api/challenges/rx/runs/${task}${query}`, { body, token });
    expect(res.status, res.text).toBe(201);
  };
  await run(
    'INT',
    tsv([
      ['d1', 'P38398', '1', '0.9'],
      ['d1', 'Q99999', '2', '0.4'],
      ['d2', 'P12345', '1', '0.8'],
    ]),
    teamA,
  );
  await run(
    'INT',
    tsv([
      ['d2', 'P04637', '0.7'],
      ['d3', 'Q00987', '0.2'],
      ['d1', 'P04637', '0.6'],
    ]),
    teamB,
    '?columns=confidence',
  );
  const oracle = tsv([
    ['d1', 'P38398', '1', '1'],
    ['d1', 'P04637', '2', '0.9'],
    ['d2', 'P04637', '1', '1'],
  ]);
  await run('INT', oracle, ADMIN_TOKEN, '?baseline=1&name=oracle%20lookup');
  await run('MENTION', { documents: { d1: { ann: 'T1\tGene 0 5\tBRCA1' }, d2: { ann: 'T1\tGene 0 3\tp53\nT2\tGene 4 9\tbinds' } } }, teamB);
  await run('MENTION', MENTION_GOLD, ADMIN_TOKEN, '?baseline=1&name=oracle');
  await run('TOPIC', 'd1,Treatment\nd2,Diagnosis\n', teamA);
  await storeAnswers(serverA, {
    d1: {
      INT: [
        { accession: 'P04637', rank: 1, confidence: 0.8 },
        { accession: 'P38398', rank: 2, confidence: 0.6 },
      ],
      MENTION: [{ start: 0, end: 5, type: 'Gene', text: 'BRCA1', ids: ['NCBIGene:672'] }],
    },
    d2: { INT: [], MENTION: [{ start: 10, end: 14, type: 'Gene', text: 'EGFR' }] },
    d3: { INT: [{ accession: 'P12345', rank: 1, confidence: 0.3 }], MENTION: [] },
  });
}, 60_000);

afterAll(async () => {
  await ms?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** scores.tsv as run → metric → value, per task. */
function readScores(text: string): Map<string, Map<string, string>> {
  const [header, ...lines] = text.trimEnd().split('\n');
  expect(header.split('\t')).toEqual(['task', 'run', 'kind', 'team', 'server', 'baseline', 'rank', 'postChallenge', 'metric', 'value']);
  const rows = new Map<string, Map<string, string>>();
  for (const line of lines) {
    const [task, run, , , , , , , metric, value] = line.split('\t');
    const key = `${task} ${run}`;
    (rows.get(key) ?? rows.set(key, new Map()).get(key)!).set(metric, value);
  }
  return rows;
}

describe('the runs export', () => {
  let dir = '';
  let manifest: any;

  it('streams a tar.gz named for the challenge, with every run, the gold, scores.tsv and the manifest', async () => {
    const res = await exportRuns('rx', ADMIN_TOKEN);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rx.runs.tar.gz"');
    // Streamed: no length announced, sent in chunks.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    dir = extract(res.rawPayload);
    const listed = execFileSync('find', ['.', '-type', 'f'], { cwd: dir }).toString().trim().split('\n').sort();
    expect(listed).toEqual(
      [
        './gold/INT.tsv',
        './gold/MENTION/d1.ann',
        './gold/MENTION/d2.ann',
        './gold/MENTION/d3.ann',
        './manifest.json',
        './runs/INT/T1_R1.tsv',
        './runs/INT/T1_S1.tsv',
        './runs/INT/T2_R1.tsv',
        './runs/INT/T2_S1.tsv',
        './runs/INT/oracle%20lookup.tsv',
        './runs/MENTION/T1_S1/d1.ann',
        './runs/MENTION/T1_S1/d2.ann',
        './runs/MENTION/T1_S1/d3.ann',
        './runs/MENTION/T2_R1/d1.ann',
        './runs/MENTION/T2_R1/d2.ann',
        './runs/MENTION/oracle/d1.ann',
        './runs/MENTION/oracle/d2.ann',
        './runs/MENTION/oracle/d3.ann',
        './scores.tsv',
      ].sort(),
    );
    // Offline runs and gold exactly as stored.
    expect(readFileSync(join(dir, 'gold/INT.tsv'), 'utf8')).toBe(INT_GOLD);
    expect(readFileSync(join(dir, 'gold/MENTION/d2.ann'), 'utf8')).toBe(MENTION_GOLD.documents.d2.ann);
    expect(readFileSync(join(dir, 'runs/MENTION/T1_S1/d1.ann'), 'utf8')).toBe('T1\tGene 0 5\t\nN1\tReference T1 NCBIGene:672\t\n');

    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ challenge: 'rx', tasks: ['INT', 'MENTION', 'TOPIC'] });
    expect(Date.parse(manifest.exportedAt)).not.toBeNaN();
    const byName = new Map(manifest.runs.map((r: any) => [`${r.task} ${r.run}`, r]));
    expect(byName.get('INT T1_R1')).toMatchObject({
      kind: 'R',
      team: 'Exporters A',
      server: null,
      baseline: false,
      columns: 'rank,confidence',
    });
    expect(byName.get('INT T2_R1')).toMatchObject({ kind: 'R', team: 'Exporters B', columns: 'confidence', file: 'runs/INT/T2_R1.tsv' });
    expect(byName.get('INT oracle lookup')).toMatchObject({ kind: 'R', team: '', baseline: true, file: 'runs/INT/oracle%20lookup.tsv' });
    expect(byName.get('INT T1_S1')).toMatchObject({ kind: 'S', team: 'Exporters A', server: serverA, serverName: 'tagger' });
    expect(Date.parse((byName.get('INT T1_S1') as any).time)).not.toBeNaN();
    expect(byName.get('INT T2_S1')).toMatchObject({ kind: 'S', server: serverB, serverName: 'silent', time: null });
    expect(byName.get('MENTION T1_S1')).toMatchObject({ file: 'runs/MENTION/T1_S1/', columns: null });
    expect(manifest.runs).toHaveLength(8);
    expect(manifest.gold.map((g: any) => [g.task, g.file, g.backgroundDocuments])).toEqual([
      ['INT', 'gold/INT.tsv', []],
      ['MENTION', 'gold/MENTION/', []],
      ['TOPIC', null, []],
    ]);
    // TOPIC's runs have no form the export writes: named, with why.
    expect(manifest.leftOut).toEqual([
      { task: 'TOPIC', run: 'T1_R1', kind: 'R', team: 'Exporters A', why: expect.stringMatching(/TOPIC runs are not written/) },
    ]);
  });

  it('each run file, scored with `metaserver score` against its gold file, gives exactly its row of scores.tsv and of the scores API', async () => {
    const rows = readScores(readFileSync(join(dir, 'scores.tsv'), 'utf8'));
    // Every row of every board, the TOPIC one too.
    expect([...rows.keys()].filter((k) => k.startsWith('TOPIC'))).toEqual(['TOPIC T1_R1']);
    let rescored = 0;
    const figures = new Set<string>();
    for (const run of manifest.runs) {
      const gold = manifest.gold.find((g: any) => g.task === run.task).file;
      const columns = run.columns ? ['--columns', run.columns] : [];
      const scored = await score(run.task, '--gold', join(dir, gold), ...columns, join(dir, run.file));
      expect(scored.code, scored.err).toBe(0);
      const metrics = JSON.parse(scored.out).runs[0].metrics;
      const api = (await send(ms, 'GET', `/api/challenges/rx/scores/${run.task}`, { token: ADMIN_TOKEN })).json;
      const row = api.runs.find((r: any) => r.run === run.run);
      expect(row.metrics, `${run.task} ${run.run}`).toEqual(metrics);
      const flat = [...flattenMetrics(metrics)].map(([k, v]) => [k, v === null ? '' : String(v)]);
      expect([...rows.get(`${run.task} ${run.run}`)!], `${run.task} ${run.run} in scores.tsv`).toEqual(flat);
      rescored++;
      figures.add(`${run.task} ${JSON.stringify(metrics)}`);
    }
    expect(rescored).toBe(8);
    // Not all alike: the runs differ, and so do their figures.
    expect(figures.size).toBeGreaterThanOrEqual(6);
  });

  it('is what `metaserver export --runs` writes, to <slug>.runs.tar.gz or --out', async () => {
    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const out = join(mkdtempSync(join(tmpdir(), 'runs-export-cli-')), 'all', 'rx.tar.gz');
    dirs.push(dirname(dirname(out)));
    const io = captured();
    const common = ['--challenge', 'rx', '--url', address];
    expect(await runExportCommand([...common, '--runs', '--token', ADMIN_TOKEN, '--out', out], io), io.err).toBe(0);
    const got = JSON.parse(readFileSync(join(extract(readFileSync(out)), 'manifest.json'), 'utf8'));
    expect(got.runs).toEqual(manifest.runs);
    // Refused: said, and nothing written.
    const refused = captured();
    const denied = join(dirname(out), 'denied.tar.gz');
    expect(await runExportCommand([...common, '--runs', '--token', teamA, '--out', denied], refused)).toBe(1);
    expect(refused.err).toMatch(/HTTP 403: .*once the organiser publishes its leaderboards/);
    expect(existsSync(denied) || existsSync(`${denied}.part`)).toBe(false);
    const misused = captured();
    expect(await runExportCommand([...common, '--runs', '--task', 'INT'], misused)).toBe(2);
    expect(misused.err).toMatch(/leave --task and --format out/);
  });

  it('is given to a team once the leaderboards are published, not before, and never to anyone without a token', async () => {
    const before = await exportRuns('rx', teamA);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toMatchObject({
      code: 'not_published',
      message: expect.stringMatching(/once the organiser publishes its leaderboards/),
    });
    expect((await exportRuns('rx')).statusCode).toBe(401);
    expect((await ms.request('PATCH', '/api/challenges/rx', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
    // Closed is not enough: publication is the rule.
    expect((await exportRuns('rx', teamB)).statusCode).toBe(403);
    expect((await ms.request('PATCH', '/api/challenges/rx', { leaderboardPublished: true }, ADMIN_TOKEN)).status).toBe(200);
    const after = await exportRuns('rx', teamB);
    expect(after.statusCode).toBe(200);
    expect(JSON.parse(readFileSync(join(extract(after.rawPayload), 'manifest.json'), 'utf8')).runs).toHaveLength(8);
    expect((await exportRuns('rx')).statusCode).toBe(401);
    // Reopening withdraws the publication, and the export with it.
    expect((await ms.request('PATCH', '/api/challenges/rx', { phase: 'test', reopen: true }, ADMIN_TOKEN)).status).toBe(200);
    expect((await exportRuns('rx', teamB)).statusCode).toBe(403);
  });

  it('is a 404 no_gold for a challenge without any gold standard, saying what to load', async () => {
    await ms.challenge('nogold', { name: 'No gold', tasks: ['INT'] });
    const res = await exportRuns('nogold', ADMIN_TOKEN);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'no_gold', message: expect.stringContaining('PUT /api/challenges/nogold/gold/') });
    expect((await exportRuns('missing', ADMIN_TOKEN)).statusCode).toBe(404);
  });

  it('names the gold documents of background articles, which the boards leave out and the gold file holds', async () => {
    await ms.challenge('bg', { name: 'Background', tasks: ['INT'] });
    await ms.articles('bg', [
      { id: 'd1', text: 'BRCA1 binds.' },
      { id: 'd2', text: 'p53 binds.' },
    ]);
    const gold = tsv([
      ['d1', 'P38398'],
      ['d2', 'P04637'],
    ]);
    expect((await send(ms, 'PUT', '/api/challenges/bg/gold/INT', { body: gold, token: ADMIN_TOKEN })).status).toBe(200);
    expect((await ms.request('PATCH', '/api/challenges/bg/scored-articles', { background: ['d2'] }, ADMIN_TOKEN)).status).toBe(200);
    const res = await exportRuns('bg', ADMIN_TOKEN);
    expect(res.statusCode).toBe(200);
    const got = extract(res.rawPayload);
    expect(JSON.parse(readFileSync(join(got, 'manifest.json'), 'utf8'))).toMatchObject({
      runs: [],
      gold: [{ task: 'INT', file: 'gold/INT.tsv', backgroundDocuments: ['d2'] }],
      leftOut: [],
    });
    expect(readFileSync(join(got, 'gold/INT.tsv'), 'utf8')).toBe(gold);
  });
});
