// Publishing a leaderboard (PATCH /api/challenges/:slug {"leaderboardPublished": true}):
// refused before the close, then the scores are readable without a token (exports still
// need one); reopening the challenge withdraws the publication. And the pure rule that a
// server that never answered is ranked after every run that did, even one scoring 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGoldUpload } from '../../src/leaderboard/inputs.ts';
import { buildLeaderboard } from '../../src/leaderboard/leaderboard.ts';
import { onlineRun } from '../../src/leaderboard/online-runs.ts';
import { homePageBody } from '../../src/web/pages/article.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send, tsv } from './helpers.ts';

let ms: TestMetaserver;
let team = '';
let serverId = 0;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('pub', { name: 'Publication' });
  await ms.articles('pub', [{ id: 'd1', text: 'BRCA1 (P38398) binds.' }]);
  team = (await ms.team('Publishers')).token;
  serverId = (await ms.server('pub', team, { name: 'never', url: 'http://127.0.0.1:9/' })).id;
  expect((await send(ms, 'PUT', '/api/challenges/pub/gold/INT', { body: tsv([['d1', 'P38398']]), token: ADMIN_TOKEN })).status).toBe(200);
});
afterAll(async () => {
  await ms?.stop();
});

const scores = (token?: string) => ms.request('GET', '/api/challenges/pub/scores/INT', undefined, token);

describe('publishing a leaderboard', () => {
  it('is refused before the close, with what to do', async () => {
    const refused = await ms.request('PATCH', '/api/challenges/pub', { leaderboardPublished: true }, ADMIN_TOKEN);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/close it first/);
    expect((await ms.request('GET', '/api/challenges/pub')).body.leaderboardPublished).toBe(false);
    expect((await ms.request('PATCH', '/api/challenges/pub', { leaderboardPublished: true }, team)).status).toBe(403);
    expect((await scores()).status).toBe(401);
  });

  it('once closed and published, lets anyone read the scores (not the exports), and the home page link them', async () => {
    // Closed but not published: teams may read, visitors may not, and the home page links nothing.
    expect((await ms.request('PATCH', '/api/challenges/pub', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
    expect((await scores(team)).status).toBe(200);
    expect((await scores()).status).toBe(401);
    expect(homePageBody(await ms.ctx.repos.challenges.list()).value).not.toContain('/challenges/pub/leaderboard/INT');

    const published = await ms.request('PATCH', '/api/challenges/pub', { leaderboardPublished: true }, ADMIN_TOKEN);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ phase: 'closed', leaderboardPublished: true });
    const open = await scores();
    expect(open.status).toBe(200);
    expect(open.body.runs).toEqual((await scores(ADMIN_TOKEN)).body.runs);
    expect(open.body.runs[0]).toMatchObject({ run: 'T1_S1', team: 'Publishers', server: serverId, serverName: 'never', answered: 0 });
    expect((await ms.request('GET', `/api/challenges/pub/export/INT?server=${serverId}`)).status).toBe(401);
    expect(homePageBody(await ms.ctx.repos.challenges.list()).value).toContain('href="/challenges/pub/leaderboard/INT"');
  });

  it('is withdrawn when the challenge is reopened', async () => {
    const reopened = await ms.request('PATCH', '/api/challenges/pub', { phase: 'test', reopen: true }, ADMIN_TOKEN);
    expect(reopened.status).toBe(200);
    expect(reopened.body.leaderboardPublished).toBe(false);
    // Never silently: the answer says this change withdrew it.
    expect(reopened.body.publicationWithdrawn).toBe(true);
    expect((await scores()).status).toBe(401);
    // Closing again does not publish again by itself, and withdraws nothing more.
    const closed = await ms.request('PATCH', '/api/challenges/pub', { phase: 'closed' }, ADMIN_TOKEN);
    expect(closed.body.leaderboardPublished).toBe(false);
    expect(closed.body.publicationWithdrawn).toBeUndefined();
    expect((await scores()).status).toBe(401);
  });
});

describe('a server that never answered', () => {
  it('is ranked after every run that answered, even one scoring 0, and before runs that could not be scored', () => {
    const gold = parseGoldUpload('INT', 'd1\tP38398\n').gold;
    const wrong = onlineRun('INT', [{ doc: 'd1', value: [{ accession: 'P04637', rank: 1 }] }]);
    const none = onlineRun('INT', []);
    const board = buildLeaderboard(
      'INT',
      gold,
      [
        { run: 'T1_S1', team: 'A', server: 1, serverName: 'quiet', answered: 0, kind: 'S', data: none },
        { run: 'T2_S1', team: 'B', server: 2, serverName: 'wrong', answered: 1, kind: 'S', data: wrong },
      ],
      {},
      {},
    );
    expect(board.runs.map((r) => [r.run, r.answered])).toEqual([
      ['T2_S1', 1],
      ['T1_S1', 0],
    ]);
    expect(board.runs[1]).toMatchObject({ serverName: 'quiet' });
  });
});
