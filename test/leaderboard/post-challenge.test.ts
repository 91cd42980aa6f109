// The official board kept: a close stores every task's board; while the challenge stays
// closed the organiser's gold and baselines are taken into it; then a post-challenge phase
// ({"phase": "post"}) lets teams register, run and upload again, their rows marked
// postChallenge on the live board, while ?board=official answers the close's board exactly
// as stored. Closing again keeps it; reopening to test forgets it until the next close.
// Real workers and the sample server answer the articles, before the close and after.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, serverSettled, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send, THREE_ITEMS } from './helpers.ts';

const ARTICLES = [
  { id: 'd1', text: 'Alpha-synuclein P37840 binds BRCA1 P38398 and P04637.' },
  { id: 'd2', text: 'Q9Y6K9 forms a complex with O14920 and interacts with P38398.' },
];
const { gold: GOLD, half: HALF, perfect: PERFECT } = THREE_ITEMS;

let ms: TestMetaserver;
let sample: SampleServer;
let teamA: { id: number; token: string };
let teamB: { id: number; token: string };
let teamC: { id: number; token: string };

const patch = (body: object) => ms.request('PATCH', '/api/challenges/post', body, ADMIN_TOKEN);
const scores = (query = '', token: string | undefined = ADMIN_TOKEN) =>
  send(ms, 'GET', `/api/challenges/post/scores/INT${query}`, { token });
const upload = (body: string, token: string, query = '') => send(ms, 'POST', `/api/challenges/post/runs/INT${query}`, { body, token });
const names = (rows: Array<{ run: string }>) => rows.map((r) => r.run);

async function sampleServer(token: string, name: string): Promise<number> {
  const server = await ms.server('post', token, { name, url: sample.url, tasks: ['INT'] });
  await ms.startServer(server.id, token);
  await serverSettled(ms, server.id, ARTICLES.length);
  return server.id;
}

beforeAll(async () => {
  ms = await startTestMetaserver();
  sample = await startSampleServer({ port: 0 });
  await ms.challenge('post', { name: 'Post-challenge', tasks: ['INT'] });
  teamA = await ms.team('Online A');
  teamB = await ms.team('Offline B');
  teamC = await ms.team('Late C');
  await ms.articles('post', ARTICLES);
  await sampleServer(teamA.token, 'sample');
  expect((await send(ms, 'PUT', '/api/challenges/post/gold/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(200);
  expect((await upload(HALF, teamB.token)).status).toBe(201);
});
afterAll(async () => {
  await ms?.stop();
  await sample?.close();
});

describe('the official board and the post-challenge phase', () => {
  let official: any;

  it('has no official board before the close, and no post phase either', async () => {
    const none = await scores('?board=official');
    expect(none.status).toBe(404);
    expect(none.json.error).toMatchObject({ code: 'no_official_board' });
    expect(none.json.error.message).toMatch(/has not closed/);
    const early = await patch({ phase: 'post' });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/post-challenge phase follows the close; .* close it first/);
    // The live board of an open challenge says nothing of boards.
    expect((await scores()).json.board).toBeUndefined();
  });

  it('stores every board at the close, answered as stored', async () => {
    const closed = await patch({ phase: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.officialBoards).toEqual({ taken: ['INT'], withoutGold: [] });
    expect(closed.body.officialClosedAt).toBe(closed.body.phaseChangedAt);
    const live = (await scores()).json;
    official = (await scores('?board=official')).json;
    expect(official).toMatchObject({ board: 'official', closedAt: closed.body.officialClosedAt, task: 'INT' });
    expect(live).toMatchObject({ board: 'live', closedAt: closed.body.officialClosedAt });
    expect(official.runs).toEqual(live.runs);
    expect(names(official.runs).sort()).toEqual([`T${teamA.id}_S1`, `T${teamB.id}_R1`]);
    expect(official.runs.every((r: any) => r.postChallenge === undefined)).toBe(true);
    // Teams read it once closed, as the live board; the options are the live board's.
    expect((await scores('?board=official', teamB.token)).status).toBe(200);
    const withOptions = await scores('?board=official&cutoff=1');
    expect(withOptions.status).toBe(400);
    expect(withOptions.json.error.message).toMatch(/default options; leave out cutoff/);
    const tsvForm = await scores('?board=official&format=tsv');
    expect(tsvForm.text).toBe((await scores('?format=tsv')).text);
  });

  it('takes in a baseline loaded while closed; teams runs stay refused', async () => {
    expect((await upload(PERFECT, teamB.token)).status).toBe(409);
    expect((await upload(PERFECT, ADMIN_TOKEN, '?baseline=1&name=oracle')).status).toBe(201);
    const again = (await scores('?board=official')).json;
    expect(names(again.runs)).toEqual(['oracle', ...names(official.runs)]);
    expect(Date.parse(again.takenAt)).toBeGreaterThan(Date.parse(official.takenAt));
    expect(again.closedAt).toBe(official.closedAt);
    official = again;
  });

  it('opens the post phase without reopening: new runs and servers are scored live, marked, and the official board stays', async () => {
    const opened = await patch({ phase: 'post', leaderboardPublished: true });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ phase: 'post', leaderboardPublished: true, officialClosedAt: official.closedAt });
    expect(opened.body.postOpenedAt).toBe(opened.body.phaseChangedAt);

    const late = await upload(PERFECT, teamB.token);
    expect(late.status).toBe(201);
    expect(late.json.run).toBe(`T${teamB.id}_R2`);
    await sampleServer(teamC.token, 'late sample');

    const live = (await scores()).json;
    const post = Object.fromEntries(live.runs.map((r: any) => [r.run, r.postChallenge]));
    expect(post).toEqual({
      oracle: false,
      [`T${teamB.id}_R2`]: true,
      [`T${teamA.id}_S1`]: false,
      [`T${teamC.id}_S1`]: true,
      [`T${teamB.id}_R1`]: false,
    });
    // The late perfect run is ranked first live; officially nothing changed, for everyone.
    expect(live.runs.find((r: any) => r.rank === 1).run).toBe(`T${teamB.id}_R2`);
    // Taken a last time as the post phase opened: the same rows (nothing of the teams' changes while closed).
    const kept = await scores('?board=official', undefined);
    expect(kept.status).toBe(200);
    expect({ ...kept.json, takenAt: '' }).toEqual({ ...official, takenAt: '' });
    official = kept.json;
    expect((await scores('?format=tsv')).text.split('\n')[0]).toMatch(/\tbaseline\trank\tpostChallenge$/);
  });

  it('exports the live rows marked and the official board beside them', async () => {
    const res = await ms.app!.inject({
      method: 'GET',
      url: '/api/challenges/post/runs/export',
      headers: { authorization: `Bearer ${teamB.token}` },
    });
    expect(res.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'post-export-'));
    try {
      writeFileSync(join(dir, 'all.tar.gz'), res.rawPayload);
      execFileSync('tar', ['-xzf', 'all.tar.gz'], { cwd: dir });
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      const marked = Object.fromEntries(manifest.runs.map((r: any) => [r.run, r.postChallenge]));
      expect(marked).toEqual({
        [`T${teamB.id}_R1`]: false,
        [`T${teamB.id}_R2`]: true,
        oracle: false,
        [`T${teamA.id}_S1`]: false,
        [`T${teamC.id}_S1`]: true,
      });
      // scores-official.tsv: the official board's rows, exactly the runs the close kept.
      const officialRuns = new Set(
        readFileSync(join(dir, 'scores-official.tsv'), 'utf8')
          .trimEnd()
          .split('\n')
          .slice(1)
          .map((line) => line.split('\t')[1]),
      );
      expect([...officialRuns].sort()).toEqual(names(official.runs).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a team as many runs again after the close, numbered on', async () => {
    for (let n = 3; n <= 6; n++) {
      const run = await upload(HALF, teamB.token);
      expect(run.json, run.text).toMatchObject({ run: `T${teamB.id}_R${n}` });
    }
    const refused = await upload(HALF, teamB.token);
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/5 post-challenge offline INT runs already/);
  });

  it('keeps the official board when the post phase closes, and a new gold does not change it', async () => {
    const closed = await patch({ phase: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.officialBoards).toBeUndefined();
    expect(closed.body).toMatchObject({ officialClosedAt: official.closedAt, leaderboardPublished: true });
    expect((await send(ms, 'PUT', '/api/challenges/post/gold/INT', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(200);
    expect((await scores('?board=official')).json).toEqual(official);
    // Back to post: no new board either (it was taken when the post phase first opened).
    expect((await patch({ phase: 'post' })).body.officialBoards).toBeUndefined();
  });

  it('forgets the official board on reopening, and takes a new one at the next close', async () => {
    expect((await patch({ phase: 'test' })).status).toBe(409);
    const reopened = await patch({ phase: 'test', reopen: true });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ officialClosedAt: null, postOpenedAt: null, publicationWithdrawn: true });
    expect((await scores('?board=official')).status).toBe(404);
    expect((await scores()).json.runs.every((r: any) => r.postChallenge === undefined)).toBe(true);
    const closed = await patch({ phase: 'closed' });
    const next = (await scores('?board=official')).json;
    expect(next.closedAt).toBe(closed.body.officialClosedAt);
    expect(Date.parse(next.closedAt)).toBeGreaterThan(Date.parse(official.closedAt));
    expect(next.runs).toHaveLength(official.runs.length + 6);
  });
});
