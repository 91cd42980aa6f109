// Issue 30's items in a real headless Chromium against a real meta-server on loopback: the
// site icon, pages without a token that say what to do instead of asking the API, a pasted
// token that never replaces another role's kept token, reopening a published challenge,
// test-suite challenges kept out of the teams' forms, gold checks and what a load replaced,
// the scoring maps' forms, pages named after their server or article, the check's deadline
// while it runs, timestamps in words, the glance at phone width, and /docs with an operation
// open. The report's "—" for a class without answers is checked on the rendered report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium } from '../support/browser.ts';
import { reportSections } from '../../src/web/pages/suite-report.ts';

const WAIT = { timeout: 30_000 };
/** Long enough that the hanging server's check is surely still running while the page is read. */
const CHECK_SECONDS = 60;
const TITLE = 'Tumour suppressors in human cells';
const ARTICLES = [
  { id: 'PMC7', text: `${TITLE}\nBRCA1 (P38398) binds TP53 (P04637).` },
  { id: 'PMC8', text: 'The kinase P31749 interacts with Q9Y6K9.' },
];
/** "26 Nov 2026, 22:44:17 UTC" */
const IN_WORDS = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC$/;

let ms: TestMetaserver;
let browser: Browser;
let base: string;
const faulty: FaultyServer[] = [];
let hanging: FaultyServer;
const team = { a: '', b: '' };
const servers = { failing: 0, hanging: 0 };

/** A fresh browser context holding these tokens; its page collects console errors, 4xx included. */
async function open(
  tokens: { organiser?: string; team?: string },
  width = 1280,
): Promise<{ context: BrowserContext; page: Page; errors: string[]; asked: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const set = Object.entries(tokens)
    .map(([role, t]) => `localStorage.setItem('metaserver.token.${role}', ${JSON.stringify(t)});`)
    .join(' ');
  if (set) await context.addInitScript(set);
  const page = await context.newPage();
  const errors = collectPageErrors(page, { strict: true });
  const asked: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/^\/(api|fragments)\//.test(path)) asked.push(path);
  });
  return { context, page, errors, asked };
}
const statusOf = (page: Page, form: string) => page.locator(`${form} [data-status]:is(.ok, .warn, .error)`);
async function said(page: Page, form: string, text: RegExp): Promise<string> {
  const line = statusOf(page, form).filter({ hasText: text });
  await line.waitFor(WAIT);
  return (await line.textContent()) ?? '';
}

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: CHECK_SECONDS } });
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  for (const [slug, tasks] of [
    ['lm', ['ACT', 'INT', 'IPT', 'TX']],
    ['pub', ['INT']],
    ['suite-x', ['MENTION']],
  ] as const) {
    await ms.challenge(slug, { name: `Challenge ${slug}`, tasks, maxAttempts: 1, retryDelaySeconds: 0 });
  }
  team.a = (await ms.team('Team A')).token;
  team.b = (await ms.team('Team B')).token;
  for (let i = 0; i < 2; i++) {
    const server = await startFaultyServer({ kind: 'http', status: 500 });
    faulty.push(server);
    const s = await ms.server('lm', team.a, { name: `broken${i + 1}`, url: server.url, tasks: ['ACT', 'INT'] });
    await ms.startServer(s.id, team.a);
    servers.failing ||= s.id;
  }
  await ms.articles('lm', ARTICLES);
  await waitFor(
    'both broken servers failed every article',
    async () => {
      const all = (await ms.request('GET', '/api/challenges/lm/reliability', undefined, ADMIN_TOKEN)).body.servers as Array<{
        reliability: { successRate: number | null; attempts?: number };
      }>;
      const status = await ms.request('GET', `/api/servers/${servers.failing}`, undefined, team.a);
      const failedAll =
        all.length === 2 &&
        status.body.progress.failed === ARTICLES.length &&
        (await ms.request('GET', `/api/servers/${servers.failing + 1}`, undefined, team.a)).body.progress.failed === ARTICLES.length;
      return failedAll ? true : undefined;
    },
    60_000,
  );
  hanging = await startFaultyServer({ kind: 'hang' });
  servers.hanging = (await ms.server('lm', team.a, { name: 'hangs', url: hanging.url, tasks: ['ACT'] }, { background: true })).id;
  // "pub": INT gold, closed and published.
  expect(
    (
      await ms.app!.inject({
        method: 'PUT',
        url: '/api/challenges/pub/gold/INT',
        payload: 'PMC1\tP38398\n',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
      })
    ).statusCode,
  ).toBe(200);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
  for (const s of [...faulty, hanging]) await s?.close();
});

describe('issue 30: the pages, last mile', () => {
  it('serves the site icon where browsers look for it and links it from every page', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
    const { context, page, errors } = await open({});
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    await page.goto(`${base}/`);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^\/favicon\.svg\?v=[0-9a-f]{12}$/);
    await page.waitForLoadState('networkidle');
    expect(missing).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks nothing of the API without a token, and says in words what to do instead', async () => {
    const { context, page, errors, asked } = await open({});
    const cases: Array<[string, RegExp]> = [
      ['/team', /^Paste your team token in the token box above, or register a team below/],
      ['/organiser', /^Paste the organiser token in the token box above/],
      ['/challenges/pub/leaderboard/INT', /^This leaderboard is not published yet\./],
      [`/servers/${servers.failing}`, /^This part needs a token/],
      ['/challenges/lm/articles', /^This part needs the organiser token/],
      [
        `/articles/${(await ms.request('GET', '/api/challenges/lm/articles/PMC7', undefined, ADMIN_TOKEN)).body.id}`,
        /^This article is not public/,
      ],
    ];
    for (const [path, words] of cases) {
      await page.goto(`${base}${path}`);
      const notice = page.locator('[data-fragment] .notice').first();
      await notice.waitFor(WAIT);
      expect(await notice.textContent(), path).toMatch(words);
      expect(page.url()).toBe(`${base}${path}`);
    }
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);

    // Published, the leaderboard is for everyone: the visitor's page asks for it and shows it.
    expect((await ms.request('PATCH', '/api/challenges/pub', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
    expect((await ms.request('PATCH', '/api/challenges/pub', { leaderboardPublished: true }, ADMIN_TOKEN)).status).toBe(200);
    await page.goto(`${base}/challenges/pub/leaderboard/INT`);
    await page.locator('table.leaderboard').waitFor(WAIT);
    expect(asked).toContain('/fragments/challenges/pub/leaderboard/INT');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('refuses to let a team token pasted in the organiser box replace the team token kept in the browser', async () => {
    const { context, page, errors } = await open({ team: team.a });
    await page.goto(`${base}/organiser`);
    await page.fill('#token-input', team.b);
    await page.press('#token-input', 'Enter');
    const line = page.locator('[data-token-status].error');
    await line.waitFor(WAIT);
    expect(await line.textContent()).toMatch(
      /^This is team "Team B"'s token, not the organiser token\. Nothing was saved: this browser already keeps a team token \(ending ….{4}\)/,
    );
    expect(await page.evaluate('localStorage.getItem("metaserver.token.team")')).toBe(team.a);
    expect(await page.evaluate('localStorage.getItem("metaserver.token.organiser")')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says that reopening withdrew the publication, and that closing again does not publish', async () => {
    const { context, page, errors } = await open({ organiser: ADMIN_TOKEN });
    await page.goto(`${base}/organiser`);
    const reopen = page.locator('label:has(#phase-pub-reopen)');
    await reopen.waitFor(WAIT);
    expect(await reopen.textContent()).toMatch(/reopening withdraws the leaderboards' publication/);
    await page.selectOption('#phase-pub', 'test');
    await page.check('#phase-pub-reopen');
    await page.click('#phase-pub-apply');
    expect(await said(page, '#phase-pub-form', /phase is now/)).toBe(
      'The phase is now "test". The leaderboards are no longer published: their answers may change until the challenge is closed again; then publish them again from a leaderboard page.',
    );
    expect((await ms.request('GET', '/api/challenges/pub')).body).toMatchObject({ phase: 'test', leaderboardPublished: false });
    await page.locator('[data-phase="pub"]', { hasText: 'test' }).waitFor(WAIT);
    await page.selectOption('#phase-pub', 'closed');
    await page.click('#phase-pub-apply');
    expect(await said(page, '#phase-pub-form', /"closed"/)).toMatch(
      /^The phase is now "closed"\. The leaderboards are not published: teams see them, visitors do not until you publish them/,
    );
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("does not offer the organiser's test-suite challenges in the teams' server and run forms", async () => {
    const { context, page, errors } = await open({ team: team.a });
    await page.goto(`${base}/team`);
    for (const select of ['#server-challenge', '#run-challenge']) {
      const values = await page
        .locator(`${select} option`)
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
      expect(values, select).toContain('lm');
      expect(values, select).not.toContain('suite-x');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("holds gold to a run's checks and says which gold a load replaced", async () => {
    const { context, page } = await open({ organiser: ADMIN_TOKEN });
    await page.goto(`${base}/organiser`);
    const load = async (task: string, body: string) => {
      await page.selectOption('#gold-challenge', 'lm');
      await page.selectOption('#gold-task', task);
      await page.fill('#gold-body', body);
      await page.click('#load-gold button[type="submit"]');
    };
    await load('INT', 'PMC7\tBRCA1\n');
    expect(await said(page, '#load-gold', /Not done/)).toMatch(
      /at line 1: column 2 \(accession\): "BRCA1" does not match the UniProt accession pattern/,
    );
    await load('ACT', 'PMC7\t1\nPMC8\t0\textra\n');
    expect(await said(page, '#load-gold', /Not done/)).toMatch(
      /at line 2: expected 2 tab-separated columns \(docid, classification\), found 3/,
    );
    await load('INT', 'PMC7\tP38398\n');
    expect(await said(page, '#load-gold', /Gold loaded: 1 item/)).toBe('Gold loaded: 1 item in 1 document.');
    await load('INT', 'PMC7\tP38398\nPMC8\tP31749\n');
    const replaced = await said(page, '#load-gold', /Gold loaded: 2 items/);
    expect(replaced).toMatch(
      /^Gold loaded: 2 items in 2 documents\. It replaced the previous gold standard \(1 item in 1 document, loaded .+\); scores now use this one\.$/,
    );
    await context.close();
  }, 60_000);

  it('loads the homonym-ortholog and organism maps from the settings page, and the options then score', async () => {
    const { context, page, errors } = await open({ organiser: ADMIN_TOKEN });
    await page.goto(`${base}/challenges/lm/settings`);
    await page.fill('#map-ho-body', 'P38398\tP38399,Q00001\n');
    await page.click('#load-map-ho button[type="submit"]');
    expect(await said(page, '#load-map-ho', /map/)).toBe(
      'Homonym-ortholog map loaded: 1 entry. It replaces any map loaded before; leaderboards with the ho option now score with it.',
    );
    await page.fill('#map-of-body', 'P38398\t9606\nP31749\t9606\n');
    await page.click('#load-map-of button[type="submit"]');
    expect(await said(page, '#load-map-of', /map/)).toMatch(/^Organism map loaded: 2 entries\./);
    await page.goto(`${base}/challenges/lm/leaderboard/INT?ho=1&of=1`);
    await page.locator('table.leaderboard').waitFor(WAIT);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("names the server and the article in the h1, states the running check's deadline and writes times in words", async () => {
    const { context, page, errors } = await open({ team: team.a });
    await page.goto(`${base}/servers/${servers.hanging}`);
    const running = page.locator('[data-check="running"]');
    await running.waitFor(WAIT);
    expect(await running.textContent()).toMatch(new RegExp(`within the check's deadline of ${CHECK_SECONDS} s`));
    expect(await page.locator('main h1').textContent()).toBe(`hangs (annotation server ${servers.hanging} of team Team A)`);
    expect(await page.title()).toBe('hangs · metaserver');

    await page.goto(`${base}/servers/${servers.failing}`);
    await page.locator('table.errors time').first().waitFor(WAIT);
    expect(await page.locator('main h1').textContent()).toBe(`broken1 (annotation server ${servers.failing} of team Team A)`);
    for (const time of await page.locator('[data-check] time, table.errors time').all()) {
      expect(await time.textContent()).toMatch(IN_WORDS);
      expect(Date.parse((await time.getAttribute('datetime'))!)).not.toBeNaN();
    }
    await context.close();

    const organiser = await open({ organiser: ADMIN_TOKEN });
    await organiser.page.goto(
      `${base}/articles/${(await ms.request('GET', '/api/challenges/lm/articles/PMC7', undefined, ADMIN_TOKEN)).body.id}`,
    );
    await organiser.page.locator('main h1', { hasText: TITLE }).waitFor(WAIT);
    expect(await organiser.page.locator('main h1').textContent()).toBe(`${TITLE} (article PMC7 of lm)`);
    expect(errors).toEqual([]);
    expect(organiser.errors).toEqual([]);
    await organiser.context.close();
  }, 60_000);

  it('stacks the glance at 390 px (no sideways swipe), with the alert in good grammar and times in words', async () => {
    const { context, page, errors } = await open({ organiser: ADMIN_TOKEN }, 390);
    // Closed challenges unfolded: the one whose phase was set (pub, closed above) shows when.
    await page.goto(`${base}/organiser?closed=show`);
    const alert = page.locator('[data-fails-all="lm"]');
    await alert.waitFor(WAIT);
    expect(await alert.textContent()).toMatch(
      /^2 servers fail every article they were sent: broken1 \(team Team A\), broken2 \(team Team A\)\.$/,
    );
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const row = page.locator(`tr[data-server-row="${servers.failing}"]`);
    const box = (await row.locator('td[data-figure="success"]').boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    // The figure stands under the name, named by its column.
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('tr[data-server-row="${servers.failing}"] td[data-figure="success"]'), '::before').content`,
      ),
    ).toBe('"Success rate"');
    const phaseTime = page.locator('section.challenge time').first();
    expect(await phaseTime.textContent()).toMatch(IN_WORDS);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('keeps /docs free of axe-core violations with an operation opened', async () => {
    const { context, page, errors } = await open({});
    await page.goto(`${base}/docs`);
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor(WAIT);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.locator('.topbar a.link').getAttribute('href')).toBe('/');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows "—" in a test-suite report for precision without answers and recall without gold', () => {
    const zero = { p: 0, r: 0, f: 0 };
    const cls = (key: string, gold: number, responses: number) => ({ key, gold, responses, strict: zero, left: zero, right: zero });
    const markup = reportSections({
      serverId: 1,
      sourceServerId: 1,
      team: 'T',
      items: 2,
      progress: { queued: 0, active: 0, done: 2, failed: 0 },
      report: {
        overall: cls('(all)', 2, 0),
        classes: [cls('silent', 2, 0), cls('fp-only', 0, 3)],
        missingAnswers: [],
        falsePositives: [],
        fpSentences: { items: 0, withFalsePositives: 0, mentions: 0 },
      } as never,
    });
    const row = (label: string) =>
      new RegExp(`<th scope="row">${label}</th>((?:<td>[^<]*</td>)+)`)
        .exec(markup)![1]
        .match(/<td>([^<]*)<\/td>/g)!
        .map((c) => c.slice(4, -5));
    // gold, responses, then P R F for strict, left, right.
    expect(row('silent')).toEqual(['2', '0', '—', '0.000', '0.000', '—', '0.000', '0.000', '—', '0.000', '0.000']);
    expect(row('fp-only')).toEqual(['0', '3', '0.000', '—', '—', '0.000', '—', '—', '0.000', '—', '—']);
  });
});
