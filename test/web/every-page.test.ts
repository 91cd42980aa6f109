// Every page of the web interface (and /docs, swagger-ui's), in a real headless Chromium at
// 390 px and 1920 px, with both tokens and with none: no console error (a refused request
// counts: a page without a token must not ask), no axe-core violation (axe from the local
// npm package, injected into the page), no sideways scrolling on a phone, a screenshot of
// each, and the bytes each page loads (HTML, stylesheet, script and fragments) on a first
// visit. A new page is one more entry in PAGES.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, pageSettled, screenshot } from '../support/browser.ts';

/** What the pages are shown with: ids made by the setup below. */
interface Fixture {
  serverId: number;
  articleId: string;
  suite: string;
  pullServerId: number;
}

interface PageCase {
  /** Also the screenshot's name: `<name>-<width>.png`. */
  name: string;
  path: (f: Fixture) => string;
  /** A selector that shows the page is drawn, for pages without fragments. */
  ready?: string;
}

const PAGES: PageCase[] = [
  { name: 'home', path: () => '/' },
  { name: 'team', path: () => '/team' },
  { name: 'organiser', path: () => '/organiser' },
  { name: 'server', path: (f) => `/servers/${f.serverId}` },
  { name: 'server-as-organiser', path: (f) => `/servers/${f.serverId}?as=organiser` },
  { name: 'server-pull', path: (f) => `/servers/${f.pullServerId}` },
  { name: 'challenge-articles', path: () => '/challenges/bc/articles' },
  { name: 'challenge-articles-failed', path: () => '/challenges/bc/articles?state=failed' },
  { name: 'challenge-settings', path: () => '/challenges/bc/settings' },
  { name: 'testsuite', path: (f) => `/testsuites/${f.suite}` },
  { name: 'article', path: (f) => `/articles/${f.articleId}` },
  { name: 'leaderboard', path: () => '/challenges/bc/leaderboard/INT' },
  // swagger-ui's page, amended by the docs theme (src/web/docs-theme.ts); rendered by its script.
  { name: 'docs', path: () => '/docs', ready: '.opblock' },
];
const WIDTHS = [390, 1920];

const ARTICLES = [
  { id: 'PMC1', text: 'BRCA1 (P38398) binds TP53 (P04637) in human cells.' },
  { id: 'PMC2', text: 'The kinase P31749 interacts with Q9Y6K9 and IL2R.' },
  { id: 'PMC3', text: 'No interaction is reported for P12345 here.' },
];

let ms: TestMetaserver;
let sample: SampleServer;
let failing: FaultyServer;
let browser: Browser;
let base: string;
let fixture: Fixture;

/**
 * Visits every page, a few at a time: each in a browser context of its own (its own cache,
 * storage and console), so what one page loads, logs or scrolls is still its own. A page
 * mostly waits for the meta-server, for its fragments and for network quiet; with several in
 * flight the waits overlap instead of adding up.
 */
async function forEachPage(visit: (p: PageCase) => Promise<void>, lanes = 3): Promise<void> {
  const queue = [...PAGES];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) await visit(p);
    }),
  );
}

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver();
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  sample = await startSampleServer({ port: 0 });
  failing = await startFaultyServer({ kind: 'http', status: 500 });
  await ms.challenge('bc', { name: 'BC pages', tasks: ['ACT', 'INT', 'IPT', 'MENTION'], maxAttempts: 1, retryDelaySeconds: 0 });
  await ms.articles('bc', ARTICLES);
  const token = (await ms.team('Page team')).token;
  const servers: number[] = [];
  for (const [name, url] of [
    ['sample', sample.url],
    ['broken', failing.url],
  ]) {
    const s = await ms.server('bc', token, { name, url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] });
    await ms.startServer(s.id, token);
    servers.push(s.id);
  }
  // The servers work in the background.
  await waitFor(
    'both servers finished',
    async () => {
      const done = await Promise.all(
        servers.map(async (id) => (await ms.request('GET', `/api/servers/${id}`, undefined, token)).body.progress),
      );
      return done.every((p) => p.done + p.failed === ARTICLES.length) ? true : undefined;
    },
    30_000,
  );
  const gold = await ms.app!.inject({
    method: 'PUT',
    url: '/api/challenges/bc/gold/INT',
    payload: 'PMC1\tP38398\nPMC2\tP31749\n',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
  });
  expect(gold.statusCode, gold.body).toBe(200);
  const article = await ms.request('GET', '/api/challenges/bc/articles/PMC1', undefined, ADMIN_TOKEN);
  const suite = await ms.request('POST', '/api/testsuites', { name: 'pages', servers: [servers[0]], sample: 4, seed: 1 }, token);
  expect(suite.status).toBe(201);
  // A pull server (no URL; its page tells whether an agent is connected), left paused.
  const pull = await ms.server('bc', token, { name: 'behind a firewall', protocol: 'pull', tasks: ['ACT', 'INT'] });
  fixture = { serverId: servers[0], articleId: article.body.id, suite: 'pages', pullServerId: pull.id };
  // Both roles' tokens in every page's browser, each under its own key.
  tokens = { organiser: ADMIN_TOKEN, team: token };
}, 180_000);
let tokens: { organiser: string; team: string };

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  await sample?.close();
  await failing?.close();
});

describe('every page', () => {
  it('has no console error, no axe-core violation and no sideways scrolling at 390 px and 1920 px', async () => {
    const problems: string[] = [];
    const weightOf: Record<string, number> = {};
    await forEachPage(async (p) => {
      // A fresh browser context per page: an empty cache, so the bytes are a first visit's.
      const context = await browser.newContext();
      await context.addInitScript(
        `localStorage.setItem('metaserver.token.organiser', ${JSON.stringify(tokens.organiser)}); localStorage.setItem('metaserver.token.team', ${JSON.stringify(tokens.team)});`,
      );
      const page = await context.newPage();
      // Strict: a refused request (a favicon 404, a 401) is a console error too.
      const errors = collectPageErrors(page, { strict: true });
      let bytes = 0;
      page.on('response', (r) => {
        void r.body().then(
          (b) => {
            bytes += b.length;
          },
          () => {},
        );
      });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const res = await page.goto(`${base}${p.path(fixture)}`);
        if (res?.status() !== 200) problems.push(`${p.name}: HTTP ${res?.status()}`);
        await pageSettled(page);
        if (p.ready) await page.locator(p.ready).first().waitFor({ timeout: 30_000 });
        if (width === WIDTHS[0]) {
          await page.waitForLoadState('networkidle');
          weightOf[p.name] = Math.round((bytes / 1024) * 10) / 10;
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth');
          if (overflow > width) problems.push(`${p.name} @${width}: the page scrolls sideways (${overflow} px wide)`);
        }
        for (const v of await axeViolations(page))
          problems.push(`${p.name} @${width}: axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.join(' | ')}`);
        await screenshot(page, `${p.name}-${width}.png`, width);
      }
      for (const e of errors) problems.push(`${p.name}: console: ${e}`);
      await context.close();
    });
    // The weights, for the record (test-output/page-weights.json) and the log, in PAGES' order.
    const weights = Object.fromEntries(PAGES.map((p) => [p.name, weightOf[p.name]]));
    const out = fileURLToPath(new URL('../../test-output/', import.meta.url));
    mkdirSync(out, { recursive: true });
    writeFileSync(`${out}page-weights.json`, `${JSON.stringify(weights, null, 2)}\n`);
    console.log(
      `KiB loaded per page (first visit): ${Object.entries(weights)
        .map(([n, k]) => `${n} ${k}`)
        .join(', ')}`,
    );
    expect(problems).toEqual([]);
    // Light pages: none loads more than 100 KiB on a first visit (swagger-ui's bundle aside).
    for (const [name, kib] of Object.entries(weights)) if (name !== 'docs') expect(kib, name).toBeLessThan(100);
  }, 300_000);

  it('without a token: no console error, no refused request, no axe-core violation, at 390 px and 1920 px', async () => {
    const problems: string[] = [];
    await forEachPage(async (p) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = collectPageErrors(page, { strict: true });
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${p.name}: ${r.status()} for ${new URL(r.url()).pathname}`);
      });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const res = await page.goto(`${base}${p.path(fixture)}`);
        if (res?.status() !== 200) problems.push(`${p.name}: HTTP ${res?.status()}`);
        await pageSettled(page);
        if (p.ready) await page.locator(p.ready).first().waitFor({ timeout: 30_000 });
        for (const v of await axeViolations(page))
          problems.push(`${p.name} (no token) @${width}: axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.join(' | ')}`);
        // What a person without a token reads on the pages that used to refuse them.
        if (width === WIDTHS[0] && ['team', 'organiser', 'leaderboard'].includes(p.name))
          await screenshot(page, `${p.name}-no-token-${width}.png`, width);
      }
      for (const e of errors) problems.push(`${p.name} (no token): console: ${e}`);
      await context.close();
    });
    expect(problems).toEqual([]);
  }, 300_000);
});
