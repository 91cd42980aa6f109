// The leaderboard page's two boards, in a real headless Chromium against a real meta-server:
// an INT challenge with a team's run and the organiser's baseline is closed, its
// post-challenge phase opened, and the team uploads a better run after the close. The live
// page marks that run post-challenge (and the baseline as the organiser's, unranked); the
// switch leads to the official board, which shows the rows of the close exactly as the API
// stores them and says which board it is; the switch leads back. axe-clean on both boards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, saveOrganiserToken } from './browser-support.ts';
import { THREE_ITEMS } from '../leaderboard/helpers.ts';

const WAIT = { timeout: 30_000 };
const BOARD = '/challenges/boards/leaderboard/INT';
const { gold: GOLD, half: HALF, perfect: PERFECT } = THREE_ITEMS;

let ms: TestMetaserver;
let browser: Browser;
let page: Page;
let errors: string[];
let team: { id: number; token: string };

async function send(method: 'PUT' | 'POST' | 'PATCH', url: string, body: string | object, token = ADMIN_TOKEN): Promise<number> {
  const type = typeof body === 'string' ? 'text/tab-separated-values' : 'application/json';
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await ms.app!.inject({ method, url, payload, headers: { authorization: `Bearer ${token}`, 'content-type': type } });
  return res.statusCode;
}

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ workers: false });
  const base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  await ms.challenge('boards', { name: 'Boards', tasks: ['INT'] });
  await ms.articles('boards', [
    { id: 'd1', text: 'Alpha-synuclein P37840 binds P04637.' },
    { id: 'd2', text: 'O14920 alone.' },
  ]);
  team = await ms.team('Late Lab');
  expect(await send('PUT', '/api/challenges/boards/gold/INT', GOLD)).toBe(200);
  expect(await send('POST', '/api/challenges/boards/runs/INT', HALF, team.token)).toBe(201);
  expect(await send('POST', '/api/challenges/boards/runs/INT?baseline=1&name=oracle', PERFECT)).toBe(201);
  expect(await send('PATCH', '/api/challenges/boards', { phase: 'closed' })).toBe(200);
  expect(await send('PATCH', '/api/challenges/boards', { phase: 'post' })).toBe(200);
  expect(await send('POST', '/api/challenges/boards/runs/INT', PERFECT, team.token)).toBe(201);
  page = await (await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } })).newPage();
  errors = collectPageErrors(page);
  await saveOrganiserToken(page, ADMIN_TOKEN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
});

async function rowsOf(p: Page) {
  return await p.locator('table.leaderboard tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      run: tr.querySelector('.run-name')?.textContent,
      what: tr.querySelector('.run-what')?.textContent,
      post: tr.querySelector('th .post-challenge-mark')?.textContent ?? null,
    })),
  );
}

async function apiRuns(query: string): Promise<Array<{ run: string; postChallenge?: boolean; baseline: boolean }>> {
  return (await ms.request('GET', `/api/challenges/boards/scores/INT${query}`, undefined, ADMIN_TOKEN)).body.runs;
}

describe('the leaderboard page after the close', () => {
  it('shows the live board with the late run marked post-challenge, the baseline marked, and is axe-clean', async () => {
    await page.goto(BOARD);
    await page.locator('[data-board-shown="live"]').waitFor(WAIT);
    await expect(page.locator('#board-heading').textContent()).resolves.toBe('Live board');
    const live = await apiRuns('');
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.run)).toEqual(live.map((r) => r.run));
    // Exactly the rows the API marks, and the text says what the mark is.
    expect(rows.filter((r) => r.post !== null).map((r) => r.run)).toEqual(live.filter((r) => r.postChallenge).map((r) => r.run));
    expect(rows.find((r) => r.run === `T${team.id}_R2`)?.post).toBe('post-challenge');
    expect(rows.find((r) => r.run === 'oracle')?.what).toBe("organiser's baseline, not ranked");
    expect(await page.locator('form.board-options').count()).toBe(1);
    expect(await axeViolations(page, 1280)).toEqual([]);
    expect(await axeViolations(page, 390)).toEqual([]);
  });

  it('switches to the official board: the rows of the close, no mark, said to be official; and back', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('[data-board-link="official"]');
    await page.locator('[data-board-shown="official"]').waitFor(WAIT);
    expect(new URL(page.url()).search).toBe('?board=official');
    await expect(page.locator('#board-heading').textContent()).resolves.toBe('Official board');
    const official = await apiRuns('?board=official');
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.run)).toEqual(official.map((r) => r.run));
    expect(rows.map((r) => r.run)).not.toContain(`T${team.id}_R2`);
    expect(rows.every((r) => r.post === null)).toBe(true);
    // No options on the official board (it is kept with the default ones); the downloads ask for it.
    expect(await page.locator('form.board-options').count()).toBe(0);
    expect(await page.locator('button[data-download*="board=official"]').count()).toBe(2);
    expect(await axeViolations(page, 1280)).toEqual([]);
    expect(await axeViolations(page, 390)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('[data-board-link="live"]');
    await page.locator('[data-board-shown="live"]').waitFor(WAIT);
    expect(errors).toEqual([]);
  });
});
