// The article page's annotation viewer in a real headless Chromium, against a real
// meta-server on loopback and two taggers of two teams whose servers have the same name:
// colours by type with a legend, per-server toggles and the consensus by keyboard,
// attribution by keyboard (the panel names the servers that found the selected mention),
// UniProt and NCBI Taxonomy links, code-point offsets past non-BMP characters, a 200 KB
// article (render and toggle times printed), no console error and no axe-core violation
// at 390 and 1920 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, screenshot } from './browser-support.ts';
import { alpha, beta } from './taggers.ts';

// 𝛼 and 😀 are outside the Basic Multilingual Plane: two UTF-16 units, one code point each.
const TEXT = '𝛼-Synuclein 😀 binds BRCA1 (P38398) and TP53 in human cells (taxid 9606).';
const WAIT = { timeout: 30_000 };

/** About 200 KB of text, with non-BMP characters throughout and thousands of mentions. */
function bigArticle(): string {
  const sentences: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 200_000; i++) {
    const s = `Sentence ${i}: 𝛼-synuclein 😀 binds BRCA${(i % 9) + 1} and TP53 in human cells, while KRAS${i % 7} is mutated in ${i % 2 ? 'yeast' : 'mice'}. `;
    sentences.push(s);
    bytes += Buffer.byteLength(s);
  }
  return sentences.join('');
}

let ms: TestMetaserver;
let alphaServer: FaultyServer;
let betaServer: FaultyServer;
let browser: Browser;
let page: Page;
let base: string;
let errors: string[];

async function submit(text: string): Promise<string> {
  const res = await ms.request('POST', '/api/articles', { text });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await waitFor(
    'both taggers answered',
    async () => ((await ms.request('GET', `/api/articles/${res.body.id}?text=false`)).body.status === 'done' ? true : undefined),
    60_000,
  );
  return res.body.id;
}

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ config: { maxOnDemandArticleBytes: 300_000, maxAnswerBytes: 30_000_000 } });
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  alphaServer = await startFaultyServer({ kind: 'custom', handler: (text) => alpha(text) });
  betaServer = await startFaultyServer({ kind: 'custom', handler: (text) => beta(text) });
  // Two teams, each with a server named "tagger".
  for (const [team, url] of [
    ['Alpha Lab', alphaServer.url],
    ['Beta Lab', betaServer.url],
  ] as const) {
    const token = (await ms.team(team)).token;
    const server = await ms.server('live', token, { name: 'tagger', url, tasks: ['MENTION', 'INT', 'TX'] });
    await ms.startServer(server.id, token);
  }
  // axe-core's runner needs a page of an explicit context.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  errors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  await alphaServer?.close();
  await betaServer?.close();
});

const marksShown = (p: Page) => p.locator('[data-article-text] mark[role="button"]').allTextContents();
const panel = (p: Page) => p.locator('[data-viewer-panel]');
const focusedText = (p: Page) => p.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '') as string);

describe('the annotation viewer', () => {
  let id = '';

  it('colours mentions by type with a legend, names every server with its team, and counts offsets in code points', async () => {
    id = await submit(TEXT);
    await page.goto(`${base}/articles/${id}`);
    await page.locator('[data-viewer][data-viewer-ready]').waitFor(WAIT);
    expect(await page.locator('[data-article-text]').textContent()).toBe(TEXT);
    expect(await marksShown(page)).toEqual(['BRCA1', 'P38398', 'TP53', 'human', '9606']);
    // Types: protein, species (alpha's order), gene (beta's); TP53 was given two types.
    expect(await page.locator('.type-legend li').allTextContents()).toEqual([
      'protein 3 distinct',
      'species 2 distinct',
      'gene 1 distinct',
      'types differ servers gave this text different types',
    ]);
    const classes = await page.locator('[data-article-text] mark').evaluateAll((ms) => ms.map((m) => `${m.textContent} ${m.className}`));
    expect(classes).toEqual(['BRCA1 ann t0', 'P38398 ann t0', 'TP53 ann tmix', 'human ann t1', '9606 ann t1']);
    const labels = await page.locator('.viewer-sources label').allTextContents();
    expect(labels.slice(0, 2)).toEqual(['tagger (Alpha Lab) (5 mentions)', 'tagger (Beta Lab) (2 mentions)']);
    expect(labels[2]).toMatch(/^Consensus \(voting, threshold 0\.5\) \(\d+ mentions?\)$/);
    // The ranked lists say whose list they are, and link to the databases.
    expect(await page.locator('.list-card h4').allTextContents()).toContain('tagger (Alpha Lab)');
    expect(await page.locator('.list-card a[href^="https://www.uniprot.org/uniprotkb/P38398"]').count()).toBe(1);
    expect(await page.locator('.list-card a[href="https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=9606"]').count()).toBe(1);
  }, 120_000);

  it('shows who found a mention by keyboard: one tab stop, arrow keys between mentions, a panel naming the servers', async () => {
    await page.locator('[data-viewer-all]').focus();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('BRCA1');
    await expect.poll(() => panel(page).textContent()).toContain('Found by 2 of 2 servers:');
    expect(await panel(page).textContent()).toContain('tagger (Alpha Lab)');
    expect(await panel(page).textContent()).toContain('tagger (Beta Lab)');
    expect(await panel(page).textContent()).toContain('code points 20–25');

    await page.keyboard.press('ArrowRight');
    expect(await focusedText(page)).toBe('P38398');
    const text = await panel(page).textContent();
    expect(text).toContain('Found by 1 of 2 servers:tagger (Alpha Lab)');
    expect(text).toContain('Not found by:tagger (Beta Lab)');
    expect(await panel(page).locator('a').getAttribute('href')).toBe('https://www.uniprot.org/uniprotkb/P38398/entry');

    await page.keyboard.press('ArrowRight');
    expect(await focusedText(page)).toBe('TP53');
    // Two mentions cover TP53: protein (alpha) and gene (beta), each with its finder.
    expect(await panel(page).locator('.panel-mention').count()).toBe(2);

    await page.keyboard.press('End');
    expect(await focusedText(page)).toBe('9606');
    expect(await panel(page).locator('a').getAttribute('href')).toBe('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=9606');
    await page.keyboard.press('Home');
    expect(await focusedText(page)).toBe('BRCA1');
    // Tab leaves the text: the marks are one stop, not thirty.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.closest('[data-article-text]') === null)).toBe(true);
    await screenshot(page, 'article-viewer.png', 1280);
  }, 60_000);

  it('switches servers and the consensus on and off by keyboard', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('#viewer-source-0').focus();
    await page.keyboard.press('Space'); // alpha off
    expect(await page.locator('#viewer-source-0').isChecked()).toBe(false);
    expect(await marksShown(page)).toEqual(['BRCA1', 'TP53']);
    expect(await page.locator('[data-article-text] mark', { hasText: 'TP53' }).getAttribute('class')).toBe('ann t2');
    expect(await page.locator('[data-article-text] mark', { hasText: 'P38398' }).getAttribute('tabindex')).toBe('-1');

    // "only" for the consensus: its mentions alone.
    await page.getByRole('button', { name: 'Show only Consensus (voting, threshold 0.5)' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#viewer-source-2').isChecked()).toBe(true);
    expect(await page.locator('#viewer-source-1').isChecked()).toBe(false);
    const consensus = await marksShown(page);
    expect(consensus).toContain('BRCA1');
    // Tab from the controls still reaches the first mention shown.
    await page.locator('[data-viewer-all]').focus();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe(consensus[0]);
    expect(await panel(page).textContent()).toContain('Kept by the consensus.');

    await page.locator('[data-viewer-all]').focus();
    await page.keyboard.press('Enter');
    expect(await marksShown(page)).toEqual(['BRCA1', 'P38398', 'TP53', 'human', '9606']);
    expect(await page.locator('#viewer-source-2').isChecked()).toBe(false);
  }, 60_000);

  it('works by touch too: a tap selects a mention', async () => {
    const touch = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const phone = await touch.newPage();
    const phoneErrors = collectPageErrors(phone);
    await phone.goto(`${base}/articles/${id}`);
    await phone.locator('[data-viewer][data-viewer-ready]').waitFor(WAIT);
    await phone.locator('[data-article-text] mark', { hasText: 'human' }).tap();
    await expect.poll(() => panel(phone).textContent()).toContain('Found by 1 of 2 servers:tagger (Alpha Lab)');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(phoneErrors).toEqual([]);
    await touch.close();
  }, 60_000);

  it('has no axe-core violation at 390 and 1920 px, and no console error', async () => {
    for (const width of [390, 1920]) expect(await axeViolations(page, width), `at ${width} px`).toEqual([]);
    await screenshot(page, 'article-viewer-390.png', 390);
    expect(errors).toEqual([]);
  }, 60_000);

  it('keeps a 200 KB article fluid: render and toggle times', async () => {
    const text = bigArticle();
    const bigId = await submit(text);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/articles/${bigId}`);
    await page.locator('[data-viewer][data-viewer-ready]').waitFor({ timeout: 60_000 });
    const rendered = await page.evaluate(() => performance.getEntriesByName('viewer-ready')[0].startTime);
    // Of which: the fragment's answer (server: API call and markup) ends here; the rest is the browser's.
    const fragmentAt = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .find((e) => e.name.includes('/fragments/articles/'))!
          .toJSON() as { startTime: number; responseEnd: number; transferSize: number; decodedBodySize: number },
    );
    const marks = await page.locator('[data-article-text] mark').count();
    expect(marks).toBeGreaterThan(9_000);
    expect(
      await page.locator('[data-article-text]').evaluate((el) => (el.textContent === null ? 0 : Array.from(el.textContent).length)),
    ).toBe(Array.from(text).length);
    // A toggle: from the change to the next frame painted.
    const toggle = async (selector: string) =>
      await page.evaluate(async (sel) => {
        // Runs in the page (the project compiles without the DOM library, hence globalThis).
        const page = globalThis as any;
        const box = page.document.querySelector(sel);
        const t0 = performance.now();
        box.click();
        await new Promise((resolve) => page.requestAnimationFrame(() => setTimeout(resolve, 0)));
        return performance.now() - t0;
      }, selector);
    const off = await toggle('#viewer-source-1');
    const on = await toggle('#viewer-source-1');
    const consensus = await toggle('#viewer-source-2');
    // Of which the script's own work (the rest is the browser's style and layout).
    const scripted = await page.evaluate(() =>
      performance
        .getEntriesByName('viewer-apply')
        .slice(-3)
        .map((e) => e.duration),
    );
    console.log(
      `200 KB article (${Buffer.byteLength(text)} bytes, ${marks} marks): rendered ${rendered.toFixed(0)} ms after navigation ` +
        `(fragment of ${(fragmentAt.decodedBodySize / 1024).toFixed(0)} KiB asked at ${fragmentAt.startTime.toFixed(0)} ms, answered in ${(fragmentAt.responseEnd - fragmentAt.startTime).toFixed(0)} ms; ` +
        `browser ${(rendered - fragmentAt.responseEnd).toFixed(0)} ms); toggles ${off.toFixed(0)} / ${on.toFixed(0)} / ${consensus.toFixed(0)} ms to the next frame ` +
        `(script ${scripted.map((d) => d.toFixed(0)).join(' / ')} ms)`,
    );
    // Generous bounds: they catch a quadratic slip, not a slow machine.
    expect(rendered).toBeLessThan(15_000);
    expect(Math.max(off, on, consensus)).toBeLessThan(2_000);
    await page.keyboard.press('Tab');
    expect(errors).toEqual([]);
  }, 180_000);

  // Last: the server added here holds every later article until released.
  it('keeps the selection and the keyboard focus while the page reloads for a server still at work', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await startFaultyServer({
      kind: 'custom',
      handler: async (text) => {
        await gate;
        return beta(text);
      },
    });
    try {
      const token = (await ms.team('Gamma Lab')).token;
      const server = await ms.server('live', token, { name: 'tagger', url: slow.url, tasks: ['MENTION'] });
      await ms.startServer(server.id, token);
      const submitted = await ms.request('POST', '/api/articles', { text: TEXT });
      await waitFor('alpha and beta answered', async () => {
        const view = (await ms.request('GET', `/api/articles/${submitted.body.id}?text=false`)).body;
        return view.servers.filter((x: { state: string }) => x.state === 'done').length === 2 ? true : undefined;
      });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/articles/${submitted.body.id}`);
      await page.locator('[data-viewer][data-viewer-ready]').waitFor(WAIT);
      await page.locator('[data-article-text] mark', { hasText: 'TP53' }).focus();
      // Tag this copy of the text, then wait for the next reload to replace it.
      await page.evaluate(() => {
        (globalThis as any).document.querySelector('[data-article-text]').dataset.old = '1';
      });
      await page.locator('[data-article-text]:not([data-old])').waitFor(WAIT);
      expect(await focusedText(page)).toBe('TP53');
      expect(await page.locator('[data-article-text] mark.selected').textContent()).toBe('TP53');
      // Of the servers that sent mentions: the one still at work is not counted yet.
      expect(await panel(page).textContent()).toContain('Found by 1 of 2 servers:');
      release();
      await page.locator('[data-article-status]', { hasText: /^done$/ }).waitFor(WAIT);
      expect(await focusedText(page)).toBe('TP53');
      expect(errors).toEqual([]);
    } finally {
      release();
      await slow.close();
    }
  }, 120_000);
});
