// The pages people watch at BioCreative II.5's width (issue 31), in a real headless Chromium
// against a real meta-server on loopback: a challenge of ACT, INT and IPT with 20 servers
// answering differently and one failing every article. The article page shows the counts,
// the answers before the text (no viewer for mentions the challenge does not have), the text
// in its own scrolling region and the servers folded; the failing server's page shows its
// failures by kind first and one row for its identical attempts; the 20-run leaderboard's
// plots are fitted to the runs, name the leading ones and name every other point on focus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, saveOrganiserToken, screenshot } from './browser-support.ts';

const RUNS = 20;
const WAIT = { timeout: 30_000 };
const ACCESSIONS = ['P38398', 'P04637', 'P37840', 'P31749', 'Q9Y6K9', 'O15111', 'P01116', 'P51587'];
/** Two long articles (about 20 KB each), every accession named in them. */
const ARTICLES = ['S1', 'S2'].map((id) => ({
  id,
  text: `${id}: ${ACCESSIONS.join(' binds ')}. ` + 'The complex forms in human cells and interacts with its partners. '.repeat(300),
}));

/** Server k finds a different share of the accessions, in its own order, and one wrong one: 20 different points. */
function answerOf(k: number) {
  const found = ACCESSIONS.filter((_, i) => (i * 7 + k) % 11 < 3 + (k % 6)).slice(0, 1 + (k % 8));
  const normalizations = [...found, `Q${String(10000 + k).slice(1)}0`].map((dbid, i) => ({
    dbid,
    dbname: 'UniProt',
    rank: i + 1,
    confidence: 1 / (i + 2),
  }));
  return { interaction: [k % 3 !== 0, 0.5 + k / 50], normalizations, pairs: [] };
}

let ms: TestMetaserver;
const servers: FaultyServer[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let brokenId = 0;
let articleId = '';

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver();
  const base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  await ms.challenge('wide', { name: 'Wide', tasks: ['ACT', 'INT', 'IPT'], maxAttempts: 1, retryDelaySeconds: 0, serversPerTeam: 50 });
  const loaded = await ms.articles('wide', ARTICLES);
  articleId = loaded.ids.S1;
  const token = (await ms.team('Wide Lab')).token;
  for (let k = 0; k <= RUNS; k++) {
    const broken = k === RUNS;
    const server = await startFaultyServer(broken ? { kind: 'http', status: 500 } : { kind: 'custom', handler: () => answerOf(k) });
    servers.push(server);
    const registered = await ms.server('wide', token, {
      name: broken ? 'broken' : `tagger-${String(k + 1).padStart(2, '0')}`,
      url: server.url,
      tasks: ['ACT', 'INT', 'IPT'],
    });
    if (broken) brokenId = registered.id;
    await ms.startServer(registered.id, token);
  }
  await waitFor(
    'every pair settled',
    async () => {
      const rows = await ms.database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where state in ('done', 'failed')`);
      return rows[0].n === (RUNS + 1) * ARTICLES.length ? true : undefined;
    },
    60_000,
  );
  const gold = ARTICLES.flatMap(({ id }) => ACCESSIONS.map((a) => `${id}\t${a}`)).join('\n') + '\n';
  const put = await ms.app!.inject({
    method: 'PUT',
    url: '/api/challenges/wide/gold/INT',
    payload: gold,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
  });
  expect(put.statusCode, put.body).toBe(200);
  context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  errors = collectPageErrors(page);
  await saveOrganiserToken(page, ADMIN_TOKEN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  for (const s of servers) await s.close();
});

describe('pages at 21 servers', () => {
  it('the article page: counts first, answers before the text, the text scrolls on its own, the servers folded', async () => {
    await page.goto(`/articles/${articleId}?as=organiser`);
    await page.locator('[data-final]').waitFor(WAIT);
    expect(await page.locator('[data-article-progress]').textContent()).toBe(`answered by ${RUNS} of ${RUNS + 1} servers, failed at 1`);
    // No viewer for mentions in a challenge without MENTION.
    expect(await page.locator('text=No server has sent mentions').count()).toBe(0);
    expect(await page.locator('#text-heading').textContent()).toBe('Text');
    const top = (selector: string) => page.locator(selector).evaluate((el) => el.getBoundingClientRect().top + (globalThis as any).scrollY);
    expect(await top('#lists-heading')).toBeLessThan(await top('#text-heading'));
    expect(await top('#lists-heading')).toBeLessThan(5000);
    const region = await page.locator('.text-region').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(region.scroll).toBeGreaterThan(region.client);
    expect(region.client).toBeLessThanOrEqual(900 * 0.7 + 1);
    expect(await page.locator('details.servers-fold').getAttribute('open')).toBeNull();
    expect(await page.locator('details.servers-fold > summary').textContent()).toBe(
      `answered by ${RUNS} of ${RUNS + 1} servers, failed at 1`,
    );
    // The contents lead to each section.
    const contents = await page.locator('nav.article-contents a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(contents.slice(-2)).toEqual(['#text-heading', '#servers-heading']);
    expect(contents).toContain('#lists-heading');
    expect(await axeViolations(page, 1280)).toEqual([]);
    await screenshot(page, 'article-many-servers.png');
    expect(errors).toEqual([]);
  }, 60_000);

  it("the failing server's page: failures by kind first, one row for its identical attempts, its lost articles one click away", async () => {
    await page.goto(`/servers/${brokenId}?as=organiser`);
    const kind = page.locator('tr[data-failure-kind="http"]');
    await kind.waitFor(WAIT);
    expect(await kind.locator('[data-count]').textContent()).toBe(String(ARTICLES.length));
    expect(await page.locator('table.errors tbody tr').count()).toBe(1);
    expect(await page.locator('[data-alike]').textContent()).toBe('and 1 more like it');
    expect(await axeViolations(page, 1280)).toEqual([]);
    await screenshot(page, 'server-failures-by-kind.png');
    await Promise.all([page.waitForURL(/outcome=failed/, WAIT), page.click('[data-lost-articles]')]);
    await page
      .locator('table.articles tbody tr')
      .nth(ARTICLES.length - 1)
      .waitFor(WAIT);
    expect(await page.locator('table.articles tbody tr').count()).toBe(ARTICLES.length);
    expect(errors).toEqual([]);
  }, 60_000);

  it('the 20-run leaderboard: fitted axes, the leading runs named, every point reachable by keyboard and named on focus', async () => {
    await page.goto('/challenges/wide/leaderboard/INT');
    const plot = page.locator('[data-plot="pr"] svg');
    await plot.waitFor(WAIT);
    expect(await plot.locator('g.point').count()).toBe(RUNS);
    expect(await plot.locator('g.point[tabindex="0"][aria-label]').count()).toBe(RUNS);
    expect(await plot.locator('text.point-label:not(.on-demand)').count()).toBe(6);
    const hidden = plot.locator('g.point.unnamed').first();
    const label = hidden.locator('text.on-demand');
    expect(await label.evaluate((el) => (globalThis as any).getComputedStyle(el).display)).toBe('none');
    await hidden.focus();
    expect(await label.evaluate((el) => (globalThis as any).getComputedStyle(el).display)).not.toBe('none');
    expect(await plot.locator('desc').textContent()).toMatch(/axes fitted to the runs/);
    expect(await axeViolations(page, 1280)).toEqual([]);
    await screenshot(page, 'leaderboard-20-runs.png');
    await Promise.all([page.waitForURL(/axes=full/, WAIT), page.click('[data-axes="full"]')]);
    await expect.poll(() => page.locator('[data-plot="pr"] svg desc').textContent(), WAIT).toMatch(/^T\d+_S\d+ \(S\)/);
    expect(await page.locator('[data-plot="pr"] svg desc').textContent()).not.toMatch(/axes fitted/);
    expect(errors).toEqual([]);
  }, 60_000);
});
