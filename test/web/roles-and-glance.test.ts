// Issue 21's journeys in a real headless Chromium against a real meta-server on loopback,
// the sample server, a server answering HTTP 500 and one that never answers:
// two roles in one browser, a refused token, messages in words, registering a server that
// hangs, a missing article's page, the organisers' live glance, and the pages that were
// missing (articles, settings, offline runs, exports, the test-suite report).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { collectPageErrors, launchChromium, screenshot } from '../support/browser.ts';

const ARTICLES = [
  { id: 'PMC1', text: 'BRCA1 (P38398) binds TP53 (P04637) in human cells.' },
  { id: 'PMC2', text: 'The kinase P31749 interacts with Q9Y6K9 and IL2R.' },
  { id: 'PMC3', text: 'No interaction is reported for P12345 here.' },
];
const WAIT = { timeout: 30_000 };
/** The setup check's deadline: short, so the hanging server's check ends within the test. */
const CHECK_SECONDS = 4;

let ms: TestMetaserver;
let sample: SampleServer;
let failing: FaultyServer;
let hanging: FaultyServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;
let pageErrors: string[];
let teamToken = '';

const status = (form: string) => page.locator(`${form} [data-status]`);
/** The form's status once the answer is in (not "Sending…"): its text. */
async function answered(form: string): Promise<string> {
  await page.locator(`${form} [data-status]:is(.ok, .warn, .error)`).waitFor(WAIT);
  return (await status(form).textContent()) ?? '';
}
const localToken = (role: string) => page.evaluate(`localStorage.getItem("metaserver.token.${role}")`);

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: CHECK_SECONDS } });
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  sample = await startSampleServer({ port: 0 });
  failing = await startFaultyServer({ kind: 'http', status: 500 });
  hanging = await startFaultyServer({ kind: 'hang' });
  for (const [slug, tasks] of [
    ['bc', ['ACT', 'INT', 'IPT', 'MENTION']],
    ['intonly', ['INT']],
  ] as const) {
    await ms.challenge(slug, { name: `Challenge ${slug}`, tasks, maxAttempts: 1, retryDelaySeconds: 0 });
  }
  await ms.articles('bc', ARTICLES);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  pageErrors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  await sample?.close();
  await failing?.close();
  await hanging?.close();
});

describe('roles and messages', () => {
  it('keeps the organiser and a team apart in one browser, and refuses a wrong token in words', async () => {
    await page.goto(`${base}/team`);
    await page.fill('#token-input', 'mst_not-a-real-token');
    await page.press('#token-input', 'Enter');
    const teamLine = page.locator('[data-token-status]');
    await teamLine.filter({ hasText: /refused/ }).waitFor(WAIT);
    expect(await teamLine.textContent()).toMatch(
      /^This token was refused: it is neither the organiser token nor a registered team's token\. Nothing was saved/,
    );
    expect(await teamLine.getAttribute('class')).toMatch(/\berror\b/);
    expect(await teamLine.getAttribute('class')).not.toMatch(/\bok\b/);
    expect(await localToken('team')).toBeNull();

    // The organiser signs in on the organiser page…
    await page.goto(`${base}/organiser`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.press('#token-input', 'Enter');
    await page.locator('[data-token-status]', { hasText: /^Saved: the organiser's token/ }).waitFor(WAIT);
    // …then registers a team in the same browser: its token goes to the team's slot.
    await page.goto(`${base}/team`);
    await page.fill('#team-name', 'Two roles');
    await page.fill('#team-contact', 'two@example.org');
    await page.click('#register-team button[type="submit"]');
    const registered = page.locator('#register-team [data-status][data-token]');
    await registered.waitFor(WAIT);
    teamToken = (await registered.getAttribute('data-token'))!;
    expect(await localToken('team')).toBe(teamToken);
    expect(await localToken('organiser')).toBe(ADMIN_TOKEN);
    await page.locator('[data-token-status]', { hasText: /^Using team "Two roles"'s token/ }).waitFor(WAIT);

    // The team registers a server; the organiser page still sees it, with the organiser token.
    const created = await ms.server('bc', teamToken, { name: 'sample', url: sample.url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] });
    await page.goto(`${base}/organiser`);
    await page.locator('[data-token-status]', { hasText: /^Using the organiser's token/ }).waitFor(WAIT);
    await page.locator(`tr[data-server-row="${created.id}"]`).waitFor(WAIT);
    expect(await page.locator('#phase-bc').count()).toBe(1);

    // The team token pasted on the organiser page is kept as the team's, and said so (not green).
    await page.fill('#token-input', teamToken);
    await page.press('#token-input', 'Enter');
    const line = page.locator('[data-token-status]', { hasText: /not the organiser token/ });
    await line.waitFor(WAIT);
    expect(await line.textContent()).toContain('This is team "Two roles"\'s token');
    expect(await line.getAttribute('class')).toMatch(/\bwarn\b/);
    expect(await localToken('organiser')).toBe(ADMIN_TOKEN);
  }, 120_000);

  it('registers a server that hangs at once, shows its check running, then the timeout in words', async () => {
    await page.goto(`${base}/team`);
    await page.selectOption('#server-challenge', 'bc');
    await page.fill('#server-name', 'hangs');
    await page.fill('#server-url', hanging.url);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/challenges/bc/servers'), WAIT),
      page.click('#register-server button[type="submit"]'),
    ]);
    expect(answer.status()).toBe(201);
    await page.waitForURL(/\/servers\/\d+$/, WAIT);
    // The hanging server has not answered, so its check is still running while the page shows the server.
    await page.locator('[data-check="running"]').waitFor(WAIT);
    const result = page.locator('[data-check="failed"]');
    await result.waitFor(WAIT);
    expect(await result.textContent()).toMatch(/failed \(timeout\) — the server did not answer before the check deadline/);
    expect(hanging.requests).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'server-check-timeout.png');
  }, 120_000);

  it("says what happened in words: started, the slug rule, an empty article id, unknown gold ids, only the challenge's tasks", async () => {
    // Only the chosen challenge's tasks are offered, all ticked; an INT-only server registers.
    await page.goto(`${base}/team`);
    await page.selectOption('#server-challenge', 'intonly');
    expect(await page.isVisible('#server-task-MENTION')).toBe(false);
    expect(await page.isChecked('#server-task-INT')).toBe(true);
    await page.selectOption('#server-challenge', 'bc');
    expect(await page.isVisible('#server-task-MENTION')).toBe(true);
    await page.selectOption('#server-challenge', 'intonly');
    await page.fill('#server-name', 'int-only');
    await page.fill('#server-url', sample.url);
    await Promise.all([page.waitForURL(/\/servers\/\d+$/, WAIT), page.click('#register-server button[type="submit"]')]);
    await page.locator('[data-check="ok"]').waitFor(WAIT);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('#server-action-status', { hasText: /^Started: the server is sent the challenge's articles\.$/ }).waitFor(WAIT);

    await page.goto(`${base}/organiser`);
    await page.fill('#challenge-slug', 'Bad Slug');
    await page.fill('#challenge-name', 'Bad');
    await page.click('#create-challenge button[type="submit"]');
    await status('#create-challenge').filter({ hasText: /slug/ }).waitFor(WAIT);
    expect(await status('#create-challenge').textContent()).toBe(
      'Not done: slug: the slug may hold only lower-case letters (a–z), digits and hyphens, must start with a letter or digit and be at most 63 characters long, e.g. "bc2-5".',
    );
    expect(await status('#create-challenge').textContent()).not.toContain('pattern');

    await page.selectOption('#articles-challenge', 'bc');
    await page.selectOption('#articles-format', 'text');
    await page.fill('#articles-content', 'Some text.');
    await page.click('#load-articles button[type="submit"]');
    await status('#load-articles')
      .filter({ hasText: /Not done/ })
      .waitFor(WAIT);
    expect(await status('#load-articles').textContent()).toBe('Not done: articles[0].id is empty; fill it in.');

    await page.selectOption('#gold-challenge', 'bc');
    await page.selectOption('#gold-task', 'INT');
    await page.fill('#gold-body', 'PMC1\tP38398\nPMC9\tP04637\n');
    await page.click('#load-gold button[type="submit"]');
    const gold = status('#load-gold').filter({ hasText: /Gold loaded/ });
    await gold.waitFor(WAIT);
    expect(await gold.textContent()).toBe(
      'Gold loaded: 2 items in 2 documents. But 1 document id matches no article of this challenge (PMC9): their items cannot be matched until articles with these ids are loaded. Check the ids.',
    );
    expect(await gold.getAttribute('class')).toMatch(/\bwarn\b/);
  }, 120_000);

  it("stops polling a missing article's page after its 404", async () => {
    const fragmentCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/fragments/articles/')) fragmentCalls.push(r.url());
    });
    await page.goto(`${base}/articles/00000000-0000-4000-8000-000000000000`);
    await page.locator('[data-fragment][data-stopped]').waitFor(WAIT);
    expect(await page.locator('[data-fragment] .error').textContent()).toContain('not found');
    // The page polls every 2 s: after twice that, still the one request.
    await page.waitForTimeout(4500);
    expect(fragmentCalls).toHaveLength(1);
  }, 60_000);
});

describe('organisers: the challenge at a glance, live', () => {
  it('refreshes by itself, shows figures in seconds and per cent, and makes a server that fails everything stand out', async () => {
    const broken = await ms.server('bc', teamToken, { name: 'broken', url: failing.url });
    const good = (await ms.request('GET', '/api/challenges/bc/servers', undefined, teamToken)).body.find(
      (s: { name: string }) => s.name === 'sample',
    );
    await page.goto(`${base}/organiser`);
    const brokenRow = page.locator(`tr[data-server-row="${broken.id}"]`);
    await brokenRow.waitFor(WAIT);
    expect(await brokenRow.getAttribute('class')).toBeNull();
    // Started behind the page's back: the glance shows the outcome without a reload.
    await ms.startServer(broken.id, teamToken);
    await ms.startServer(good.id, teamToken);
    await page.locator(`tr.fails-all[data-server-row="${broken.id}"]`).waitFor(WAIT);
    expect(await brokenRow.locator('[data-figure="success"]').textContent()).toBe('0.0 %');
    expect(await brokenRow.locator('[data-figure="failing"]').textContent()).toBe('yes');
    expect(await page.locator('[data-fails-all="bc"]').textContent()).toMatch(
      /^1 server fails every article it was sent: broken \(team Two roles\)\.$/,
    );
    const goodRow = page.locator(`tr[data-server-row="${good.id}"]`);
    await goodRow.locator('[data-figure="success"]', { hasText: '100.0 %' }).waitFor(WAIT);
    expect(await goodRow.textContent()).toMatch(/3 of 3/);
    expect(await goodRow.textContent()).toMatch(/\d\.\d+ s/);
    await screenshot(page, 'organiser-glance.png');

    // The server page, opened from the organiser's page, reads its figures in words.
    await page.click(`tr[data-server-row="${good.id}"] a`);
    await page.waitForURL(/\?as=organiser$/, WAIT);
    const figures = page.locator('dl.reliability');
    await figures.waitFor(WAIT);
    expect(await figures.textContent()).toMatch(/Success rate.*100\.0 % \(3 of 3 attempts\)/);
    expect(await page.locator('pre').count()).toBe(0);
  }, 120_000);

  it("lists a challenge's articles by state and opens one; saves the settings", async () => {
    await page.goto(`${base}/organiser`);
    await page.click('a[href="/challenges/bc/articles"]');
    await page.locator('table.articles tbody tr').first().waitFor(WAIT);
    await page.selectOption('#article-state', 'failed');
    await Promise.all([page.waitForURL(/state=failed/, WAIT), page.click('#article-filter button')]);
    // Every article went to the broken server, which failed it for good: settled ("done"), with the counts.
    await page.locator('table.articles tbody tr').nth(2).waitFor(WAIT);
    const states = await page
      .locator('table.articles tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-article-state')));
    expect(states).toEqual(['done', 'done', 'done']);
    expect(await page.locator('table.articles tbody tr [data-summary]').first().textContent()).toMatch(
      /^answered by 1 of 2 servers, failed at 1$/,
    );
    await page.goto(`${base}/challenges/bc/articles?state=pending`);
    await page.locator('[data-final-count="0"]', { hasText: 'No article is pending' }).waitFor(WAIT);
    await page.goto(`${base}/challenges/bc/articles?state=failed`);
    await Promise.all([
      page.waitForURL(/\/articles\/[0-9a-f-]+\?as=organiser$/, WAIT),
      page.click('table.articles tbody tr >> nth=0 >> a'),
    ]);

    await page.goto(`${base}/challenges/bc/settings`);
    await page.fill('#settings-timeoutSeconds', '120');
    await page.fill('#settings-retryDelaySeconds', '2.5');
    await page.click('#challenge-settings button[type="submit"]');
    await status('#challenge-settings')
      .filter({ hasText: /^Saved: deadline 120 s per attempt, 1 attempt per article, back-off 2.5 s, \d+ servers? per team\.$/ })
      .waitFor(WAIT);
    const stored = (await ms.request('GET', '/api/challenges/bc')).body;
    expect([stored.timeoutSeconds, stored.retryDelaySeconds]).toEqual([120, 2.5]);
  }, 120_000);

  it('lets a team upload an offline run and export its answers, and links the test-suite report', async () => {
    await page.goto(`${base}/team`);
    await page.selectOption('#run-challenge', 'bc');
    await page.selectOption('#run-task', 'INT');
    await page.selectOption('#run-columns', 'order');
    await page.fill('#run-body', 'PMC1\tP38398\nPMC2\tP31749\n');
    await page.click('#upload-run button[type="submit"]');
    expect(await answered('#upload-run')).toBe('Run "T1_R1" stored: your team\'s run 1 of at most 5 for this task.');

    const good = (await ms.request('GET', '/api/challenges/bc/servers', undefined, teamToken)).body.find(
      (s: { name: string }) => s.name === 'sample',
    );
    await page.goto(`${base}/servers/${good.id}`);
    await page.locator('#export-what').waitFor(WAIT);
    const formats = await page.locator('#export-what option').evaluateAll((o) => o.map((x) => (x as unknown as { value: string }).value));
    expect(formats).toContain('INT/tsv');
    expect(formats).toContain('MENTION/brat');
    await page.selectOption('#export-what', 'INT/tsv');
    const [tsv] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export-form button[type="submit"]')]);
    expect(tsv.suggestedFilename()).toMatch(/\.INT\.tsv$/);
    expect(readFileSync(await tsv.path(), 'utf8')).toContain('PMC1\tP38398');
    await page.selectOption('#export-what', 'MENTION/brat');
    const [archive] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export-form button[type="submit"]')]);
    expect(archive.suggestedFilename()).toMatch(/\.MENTION\.brat\.tar\.gz$/);
    await status('#export-form')
      .filter({ hasText: /^Downloaded .+\.tar\.gz \(\d+\.\d KiB\)\.$/ })
      .waitFor(WAIT);

    const suite = await ms.request('POST', '/api/testsuites', { name: 'web-suite', servers: [good.id], sample: 4, seed: 1 }, teamToken);
    expect(suite.status).toBe(201);
    await page.goto(`${base}/organiser`);
    await page.click('a[href="/testsuites/web-suite"]');
    const report = page.locator('table.suite-report').first();
    await report.waitFor(WAIT);
    expect(await report.locator('tbody tr').first().textContent()).toContain('(all)');
    await screenshot(page, 'testsuite.png');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
