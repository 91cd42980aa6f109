// The web interface in a real headless Chromium against a real meta-server listening on a
// loopback port, the TypeScript sample server and a server that answers HTTP 500:
// (a) a team registers itself and its servers through the pages and watches them work,
// (c) an article page highlights exactly the mentions despite a non-BMP character,
// (b) the organiser closes the challenge, loads gold and reads the leaderboard and plots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { collectPageErrors, launchChromium, screenshot } from '../support/browser.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

// The browser helpers live in test/support/browser.ts; re-exported for tests that import them from here.
export { CHROMIUM_PATH, collectPageErrors, launchChromium, screenshot } from '../support/browser.ts';

const ARTICLES = [
  { id: 'PMC1', text: 'BRCA1 (P38398) binds TP53 (P04637) in human cells.' },
  { id: 'PMC2', text: 'The kinase P31749 interacts with Q9Y6K9 and IL2R.' },
  { id: 'PMC3', text: 'No interaction is reported for P12345 here.' },
];
const INT_GOLD = 'PMC1\tP38398\nPMC1\tP04637\nPMC2\tP31749\nPMC3\tP99999\n';
// 𝛼 and 😀 are outside the Basic Multilingual Plane: two UTF-16 units, one code point each.
const LIVE_TEXT = '𝛼-Synuclein 😀 binds BRCA1 (P38398) and TP53 in yeast.';
const WAIT = { timeout: 30_000 };

let ms: TestMetaserver;
let sample: SampleServer;
let faulty: FaultyServer;
let browser: Browser;
let page: Page;
let base: string;
let pageErrors: string[];
let teamToken = '';

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver();
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  sample = await startSampleServer({ port: 0 });
  faulty = await startFaultyServer({ kind: 'http', status: 500 });
  await ms.challenge('bc', {
    name: 'BC web',
    tasks: ['ACT', 'INT', 'IPT', 'MENTION'],
    maxAttempts: 2,
    retryDelaySeconds: 0,
  });
  await ms.articles('bc', ARTICLES);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  pageErrors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  await sample?.close();
  await faulty?.close();
});

async function registerServer(name: string, url: string): Promise<void> {
  await page.goto(`${base}/team`);
  await page.selectOption('#server-challenge', 'bc');
  await page.fill('#server-name', name);
  await page.fill('#server-url', url);
  await Promise.all([page.waitForURL(/\/servers\/\d+$/, WAIT), page.click('#register-server button[type="submit"]')]);
}

describe('the web interface in headless Chromium', () => {
  it("(a) a team registers, starts the sample server, sees it finish and sees the failing server's HTTP 500", async () => {
    await page.goto(`${base}/team`);
    await page.fill('#team-name', 'Web team');
    await page.fill('#team-contact', 'web@example.org');
    await page.press('#team-contact', 'Enter'); // the keyboard submits the form
    const status = page.locator('#register-team [data-status][data-token]');
    await status.waitFor(WAIT);
    teamToken = (await status.getAttribute('data-token'))!;
    expect(teamToken).toMatch(/^mst_/);
    expect(await page.evaluate('localStorage.getItem("metaserver.token.team")')).toBe(teamToken);

    await registerServer('sample', sample.url);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('[data-progress="done"]', { hasText: /^3$/ }).waitFor(WAIT);
    await page.locator('[data-server-state]', { hasText: /^active$/ }).waitFor(WAIT);
    await page.locator('svg.plot .bar rect').first().waitFor(WAIT);
    expect(await page.locator('[data-no-errors]').count()).toBe(1);
    await screenshot(page, 'team-server.png');

    await registerServer('broken', faulty.url);
    await page.getByRole('button', { name: 'Start' }).click();
    const error = page.locator('tr[data-error-kind="http"]').first();
    await error.waitFor(WAIT);
    expect(await error.textContent()).toContain('500');
    await page.locator('[data-progress="failed"]', { hasText: /^3$/ }).waitFor(WAIT);

    await page.goto(`${base}/team`);
    const list = page.locator('[data-fragment="/fragments/team/servers"] table');
    await list.waitFor(WAIT);
    expect(await list.locator('tbody tr').count()).toBe(2);
  }, 120_000);

  it('(c) the article page highlights exactly the mentions, counted in code points', async () => {
    const live = await ms.server('live', teamToken, { name: 'live-sample', url: sample.url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] });
    await ms.startServer(live.id, teamToken);

    await page.goto(`${base}/`);
    await page.fill('#submit-content', LIVE_TEXT);
    await Promise.all([page.waitForURL(/\/articles\/[0-9a-f-]+$/, WAIT), page.click('#submit-article button[type="submit"]')]);
    await page.locator('[data-article-status]', { hasText: /^done$/ }).waitFor(WAIT);
    const marks = await page.locator('[data-article-text] mark').allTextContents();
    expect(marks).toEqual(['BRCA1', 'TP53']);
    expect(await page.locator('[data-article-text]').textContent()).toBe(LIVE_TEXT);
    expect(await page.locator('.act-summary').textContent()).toBe('1 positive, 0 negative');
    await screenshot(page, 'article.png');
    await screenshot(page, 'article-390.png', 390);
    // Narrow screens scroll tables inside their box, never the whole page sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  it('(b) the organiser closes the challenge, loads INT gold and sees the leaderboard and its plots', async () => {
    await page.goto(`${base}/organiser`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.press('#token-input', 'Enter');
    await page.locator('#phase-bc').waitFor(WAIT);
    await page.selectOption('#phase-bc', 'closed');
    expect(await page.inputValue('#phase-bc')).toBe('closed');
    await page.focus('#phase-bc-apply');
    // Wait for the PATCH itself, so a failure says whether the form was sent and what came back.
    const [patched] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/challenges/bc'), WAIT),
      page.keyboard.press('Enter'),
    ]);
    expect(patched.status(), await patched.text()).toBe(200);
    expect(patched.request().postDataJSON()).toEqual({ phase: 'closed' });
    await page.locator('[data-phase="bc"]', { hasText: /^closed$/ }).waitFor(WAIT);

    await page.selectOption('#gold-challenge', 'bc');
    await page.selectOption('#gold-task', 'INT');
    await page.fill('#gold-body', INT_GOLD);
    await page.click('#load-gold button[type="submit"]');
    await page.locator('#load-gold [data-status]', { hasText: /Gold loaded: 4 items in 3 documents/ }).waitFor(WAIT);

    await page.click('a[href="/challenges/bc/leaderboard/INT"]');
    const rows = page.locator('table.leaderboard tbody tr');
    await rows.first().waitFor(WAIT);
    expect(await rows.count()).toBe(2);
    const scatter = page.locator('figure[data-plot="scatter"] svg');
    await scatter.waitFor(WAIT);
    // One point: the failing server never answered, so it is not plotted (issue 21).
    expect(await scatter.locator('g.point').count()).toBe(1);
    // Axes fitted to the one run show the iso-F curves that pass near it; the full 0–1 range shows all four.
    expect(await page.locator('figure[data-plot="pr"] svg polyline.iso-f').count()).toBeGreaterThanOrEqual(1);
    // The sample server found 3 of the 4 gold proteins; the failing server never answered: it is last, unranked.
    expect(await rows.nth(1).locator('td').nth(2).textContent()).toMatch(/^Never answered/);
    await screenshot(page, 'organiser-leaderboard.png');
    await Promise.all([page.waitForURL(/axes=full/, WAIT), page.click('[data-axes="full"]')]);
    await expect.poll(() => page.locator('figure[data-plot="pr"] svg polyline.iso-f').count(), WAIT).toBe(4);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
