// The leaderboard page in a real headless Chromium, against a real meta-server on loopback:
// two taggers of two teams (servers of the same name) and a server that only ever fails.
// The MENTION table is grouped (strict / left / right, P/R/F and integer counts) and shows
// exactly the API's figures; the failing server is listed as never answered, last; the
// options reach the API; plot labels neither overlap nor leave the plot; the organiser
// publishes the leaderboard and a visitor without a token then finds and reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, screenshot } from './browser-support.ts';
import { alpha, beta, words } from './taggers.ts';

const ARTICLES = [
  { id: 'R1', text: '𝛼-Synuclein 😀 binds BRCA1 (P38398) and TP53 in human cells.' },
  { id: 'R2', text: 'KRAS4 and BRCA2 act together in yeast; MYC2 does not.' },
];
const GOLD_WORDS: Record<string, Record<string, string>> = {
  R1: { BRCA1: 'protein', TP53: 'protein', human: 'species' },
  R2: { KRAS4: 'protein', BRCA2: 'protein', yeast: 'species' },
};
const WAIT = { timeout: 30_000 };
const BOARD = '/challenges/read/leaderboard/MENTION';

/** The gold as brat standoff, offsets in code points (as the answers count them). */
function gold(): { documents: Record<string, { ann: string }> } {
  const documents: Record<string, { ann: string }> = {};
  for (const { id, text } of ARTICLES) {
    const lines = words(text).flatMap(({ offset, word }, i) =>
      GOLD_WORDS[id][word] ? [`T${i + 1}\t${GOLD_WORDS[id][word]} ${offset} ${offset + word.length}\t${word}`] : [],
    );
    documents[id] = { ann: lines.join('\n') };
  }
  return { documents };
}

let ms: TestMetaserver;
const servers: FaultyServer[] = [];
let browser: Browser;
let organiser: BrowserContext;
let visitor: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver();
  const base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  servers.push(
    await startFaultyServer({ kind: 'custom', handler: (text) => alpha(text) }),
    await startFaultyServer({ kind: 'custom', handler: (text) => beta(text) }),
    await startFaultyServer({ kind: 'http', status: 500 }),
  );
  await ms.challenge('read', { name: 'Reading', tasks: ['MENTION'], maxAttempts: 1, retryDelaySeconds: 0 });
  await ms.articles('read', ARTICLES);
  const teams = [
    ['Alpha Lab', 'tagger'],
    ['Beta Lab', 'tagger'],
    ['Gamma Lab', 'broken'],
  ] as const;
  for (const [i, [team, name]] of teams.entries()) {
    const token = (await ms.team(team)).token;
    const server = await ms.server('read', token, { name, url: servers[i].url, tasks: ['MENTION'] });
    await ms.startServer(server.id, token);
  }
  for (const { id } of ARTICLES) {
    await waitFor(
      `every server done with ${id}`,
      async () => {
        const article = (await ms.request('GET', `/api/challenges/read/articles/${id}?text=false`, undefined, ADMIN_TOKEN)).body;
        return article.status === 'done' ? true : undefined;
      },
      60_000,
    );
  }
  expect((await ms.request('PUT', '/api/challenges/read/gold/MENTION', gold(), ADMIN_TOKEN)).status).toBe(200);
  expect((await ms.request('PATCH', '/api/challenges/read', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
  organiser = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  visitor = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  page = await organiser.newPage();
  errors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  for (const s of servers) await s.close();
});

/** The organiser's token, pasted in the token box of the organiser page. */
async function useOrganiserToken(p: Page): Promise<void> {
  await p.goto('/organiser');
  await p.fill('#token-input', ADMIN_TOKEN);
  await p.press('#token-input', 'Enter');
  await p.locator('[data-token-status].ok').waitFor(WAIT);
}

const fixed = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : '—');
const FIGURES = ['p', 'r', 'f', 'tp', 'fp', 'fn'] as const;
/** A row's cells as the page must print the API's figures: three decimals, counts as integers. */
function expectedCells(metrics: Record<string, Record<string, number>>): string[] {
  return ['strict', 'left', 'right'].flatMap((g) =>
    FIGURES.map((f) => (['tp', 'fp', 'fn'].includes(f) ? String(metrics[g][f]) : fixed(metrics[g][f]))),
  );
}

async function rowsOf(p: Page, table = '#board-main') {
  return await p.locator(`${table} tbody tr`).evaluateAll((trs) =>
    trs.map((tr) => ({
      run: tr.querySelector('.run-name')?.textContent,
      what: tr.querySelector('.run-what')?.textContent,
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
    })),
  );
}

describe('the leaderboard page', () => {
  it('is not offered to a visitor before it is published, and says why when opened', async () => {
    const v = await visitor.newPage();
    const visitorErrors = collectPageErrors(v);
    await v.goto('/');
    expect(await v.locator(`a[href="${BOARD}"]`).count()).toBe(0);
    // The page knows the board is not published and the visitor has no token: it says so without asking the API.
    const asked: string[] = [];
    v.on('request', (r) => {
      if (r.url().includes('/fragments/') || r.url().includes('/api/')) asked.push(r.url());
    });
    await v.goto(BOARD);
    await expect
      .poll(() => v.locator('[data-fragment] .notice').textContent(), WAIT)
      .toMatch(/^This leaderboard is not published yet\. .*token/);
    expect(asked).toEqual([]);
    expect(visitorErrors).toEqual([]);
    await v.close();
  }, 60_000);

  it('groups the MENTION figures (strict, left, right; P/R/F and integer counts) exactly as the API gives them', async () => {
    await useOrganiserToken(page);
    await page.goto(BOARD);
    await page.locator('#board-main tbody tr').first().waitFor(WAIT);
    expect(await page.locator('#board-main thead tr').first().locator('th[scope="colgroup"]').allTextContents()).toEqual([
      'Strict match',
      'Left match',
      'Right match',
    ]);
    // Each figure's header names its group for screen readers ("Strict match P"), shown as "P".
    expect(await page.locator('#board-main thead tr').nth(1).locator('th').allTextContents()).toEqual(
      ['Strict match', 'Left match', 'Right match'].flatMap((g) => ['P', 'R', 'F', 'TP', 'FP', 'FN'].map((f) => `${g} ${f}`)),
    );
    const api = (await ms.request('GET', '/api/challenges/read/scores/MENTION', undefined, ADMIN_TOKEN)).body;
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.run)).toEqual(api.runs.map((r: { run: string }) => r.run));
    // Runs that answered: the API's figures, formatted only.
    for (const [i, row] of rows.slice(0, 2).entries()) expect(row.cells.slice(2)).toEqual(expectedCells(api.runs[i].metrics));
    expect(
      rows
        .slice(0, 2)
        .map((r) => r.what)
        .sort(),
    ).toEqual(['server tagger of Alpha Lab', 'server tagger of Beta Lab']);
    // The failing server: last, not ranked, said in words.
    expect(rows[2].what).toBe('server broken of Gamma Lab');
    expect(rows[2].cells.slice(2).join('')).toMatch(/^Never answered/);
    expect(api.runs[2]).toMatchObject({ serverName: 'broken', answered: 0 });
    // Per type, in a table each.
    expect(await page.locator('details.breakdown summary').allTextContents()).toEqual(['protein', 'species', 'gene']);
    await screenshot(page, 'leaderboard-mention.png', 1280);
    // At 1280 px the whole board fits: its scroll region does not scroll, so the right match's figures are in view.
    expect(
      await page.evaluate(
        `(() => { const box = document.querySelector('#board-main').closest('.table-scroll'); return box.scrollWidth - box.clientWidth; })()`,
      ),
    ).toBeLessThanOrEqual(0);
  }, 60_000);

  it('passes the options to the API (single class, consensus) and says which apply', async () => {
    await page.locator('#board-singleClass').check();
    await page.locator('#board-consensus').check();
    await Promise.all([page.waitForURL(/singleClass=1/, WAIT), page.locator('#board-consensus').press('Enter')]);
    expect(page.url()).toMatch(/consensus=1/);
    await page.locator('#board-main tbody tr').first().waitFor(WAIT);
    expect(await page.locator('#board-main caption').textContent()).toBe('MENTION results (single class (types ignored))');
    expect(await page.locator('#board-singleClass').isChecked()).toBe(true);
    const api = (await ms.request('GET', '/api/challenges/read/scores/MENTION?singleClass=1&consensus=1', undefined, ADMIN_TOKEN)).body;
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.run)).toEqual(api.runs.map((r: { run: string }) => r.run));
    expect(rows.some((r) => r.what === 'consensus of the servers')).toBe(true);
    for (const [i, run] of api.runs.entries())
      if (!(run.kind === 'S' && run.answered === 0)) expect(rows[i].cells.slice(2)).toEqual(expectedCells(run.metrics));
    // The downloads carry the same options.
    expect(await page.getByRole('button', { name: 'Download TSV' }).getAttribute('data-download')).toBe(
      '/api/challenges/read/scores/MENTION?singleClass=1&consensus=1&format=tsv',
    );
  }, 60_000);

  it('labels plot points without overlaps and inside the plot', async () => {
    const boxes = await page.locator('figure[data-plot="pr"] svg').evaluate((svg) => {
      const plot = (svg as any).viewBox.baseVal;
      return {
        plot: { w: plot.width as number, h: plot.height as number },
        labels: [...svg.querySelectorAll('text.point-label')].map((t: any) => {
          const b = t.getBBox();
          return { x: b.x as number, y: b.y as number, w: b.width as number, h: b.height as number };
        }),
      };
    });
    expect(boxes.labels.length).toBeGreaterThanOrEqual(3);
    for (const [i, a] of boxes.labels.entries()) {
      expect(a.x >= 0 && a.y >= 0 && a.x + a.w <= boxes.plot.w && a.y + a.h <= boxes.plot.h, JSON.stringify(a)).toBe(true);
      for (const b of boxes.labels.slice(i + 1))
        expect(
          a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y,
          `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`,
        ).toBe(true);
    }
  }, 60_000);

  it('is published by the organiser, then a visitor without a token finds it on the home page and reads it', async () => {
    await page.goto(BOARD);
    await page.locator('[data-published="false"]').waitFor(WAIT);
    const [patched] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/challenges/read'), WAIT),
      page.getByRole('button', { name: 'Publish to everyone' }).click(),
    ]);
    expect(patched.status()).toBe(200);
    expect(patched.request().postDataJSON()).toEqual({ leaderboardPublished: true });
    await page.locator('[data-published="true"]').waitFor(WAIT);
    for (const width of [390, 1920]) expect(await axeViolations(page, width), `organiser at ${width} px`).toEqual([]);
    await screenshot(page, 'leaderboard-organiser-390.png', 390);

    const v = await visitor.newPage();
    const visitorErrors = collectPageErrors(v);
    await v.goto('/');
    await v.locator(`a[href="${BOARD}"]`).click();
    await v.locator('#board-main tbody tr').first().waitFor(WAIT);
    expect((await rowsOf(v)).map((r) => r.run)).toEqual((await rowsOf(page)).map((r) => r.run));
    // A visitor gets neither the publication switch nor export buttons (they need a token).
    expect(await v.locator('#publish-form').count()).toBe(0);
    expect(await v.locator('#board-main thead th', { hasText: 'Export' }).count()).toBe(0);
    for (const width of [390, 1920]) expect(await axeViolations(v, width), `visitor at ${width} px`).toEqual([]);
    await screenshot(v, 'leaderboard-visitor.png', 1280);
    await screenshot(v, 'leaderboard-visitor-390.png', 390);
    expect(await v.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(visitorErrors).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
