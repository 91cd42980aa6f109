// The leaderboard page with significance, in a real headless Chromium against a real
// meta-server: a MENTION gold of ten documents, three offline runs of two teams and the
// organiser's baseline. The options form asks the API for significance; the page then
// shows the baseline marked and unranked, each ranked row's 95% intervals exactly as the
// API gives them (three decimals), one interval bar per plotted run and axis at the API's
// ends on the plot's scale, the top group marked exactly as the API says, and no axe-core
// violation. The TSV download carries the group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium, saveOrganiserToken, screenshot } from './browser-support.ts';

const WAIT = { timeout: 30_000 };
const BOARD = '/challenges/sig/leaderboard/MENTION';
const TRIALS = 200;
const SCORES = `/api/challenges/sig/scores/MENTION?significance=1&trials=${TRIALS}`;

/** Ten documents of four gene mentions each, at offsets 0, 10, 20, 30. */
const DOCUMENTS = Array.from({ length: 10 }, (_, i) => `d${i + 1}`);
const mention = (n: number, type = 'Gene') => `T${n + 1}\t${type} ${n * 10} ${n * 10 + 4}\tG${n}`;
/** A run finding the first `found(doc)` mentions of each document, and one false positive where `spurious(doc)`. */
function run(found: (doc: number) => number, spurious: (doc: number) => boolean): { documents: Record<string, { ann: string }> } {
  const documents: Record<string, { ann: string }> = {};
  DOCUMENTS.forEach((id, doc) => {
    const lines = Array.from({ length: found(doc) }, (_, n) => mention(n));
    if (spurious(doc)) lines.push(`T9\tGene 50 54\tNOPE`);
    documents[id] = { ann: lines.join('\n') };
  });
  return { documents };
}
const GOLD = run(
  () => 4,
  () => false,
);
/** Strong, close to it, weak (teams), and a middling baseline: figures that vary by document, so intervals have width. */
const STRONG = run(
  (d) => (d % 3 === 0 ? 3 : 4),
  (d) => d === 4,
);
const CLOSE = run(
  (d) => (d % 2 === 0 ? 3 : 4),
  (d) => d % 4 === 1,
);
const WEAK = run(
  (d) => 1 + (d % 3),
  (d) => d % 2 === 0,
);
const BASELINE = run(
  (d) => 2 + (d % 2),
  (d) => d % 3 === 0,
);

interface ApiRow {
  run: string;
  kind: string;
  baseline: boolean;
  rank: number | null;
  metrics: { strict: Record<string, number> };
  ci95?: Record<string, { low: number; high: number }>;
}
interface ApiBoard {
  runs: ApiRow[];
  significance: { method: string; trials: number; scope: string; pairs: Array<{ a: string; b: string; p: number }>; topGroup: string[] };
}

let ms: TestMetaserver;
let browser: Browser;
let page: Page;
let errors: string[];
let api: ApiBoard;

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ workers: false });
  const base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  await ms.challenge('sig', { name: 'Significance', tasks: ['MENTION'] });
  expect((await ms.request('PUT', '/api/challenges/sig/gold/MENTION', GOLD, ADMIN_TOKEN)).status).toBe(200);
  const alpha = (await ms.team('Alpha Lab')).token;
  const beta = (await ms.team('Beta Lab')).token;
  for (const [body, token] of [
    [STRONG, alpha],
    [WEAK, alpha],
    [CLOSE, beta],
  ] as const)
    expect((await ms.request('POST', '/api/challenges/sig/runs/MENTION', body, token)).status).toBe(201);
  const baseline = await ms.request('POST', '/api/challenges/sig/runs/MENTION?baseline=1&name=dictionary', BASELINE, ADMIN_TOKEN);
  expect(baseline.status).toBe(201);
  const answer = await ms.request('GET', SCORES, undefined, ADMIN_TOKEN);
  expect(answer.status).toBe(200);
  api = answer.body as ApiBoard;
  page = await (await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } })).newPage();
  errors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
});

const fixed = (v: number) => v.toFixed(3);
const ranked = () => api.runs.filter((r) => r.rank !== null);

async function rowsOf(p: Page) {
  return await p.locator('#board-main tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      run: tr.querySelector('.run-name')?.textContent,
      what: tr.querySelector('.run-what')?.textContent,
      top: tr.hasAttribute('data-top-group'),
      mark: tr.querySelector('th .top-group-mark')?.textContent ?? null,
      // Strict P, R, F: the figure, then its interval as printed.
      strict: [...tr.querySelectorAll('td')].slice(2, 5).map((td) => ({
        figure: td.firstChild?.textContent,
        interval: td.querySelector('.ci')?.textContent ?? null,
      })),
      intervals: tr.querySelectorAll('.ci').length,
    })),
  );
}

/** A linear map from an axis's values to pixels, read from two of its tick labels (the first and the last). */
async function axisScale(p: Page, axis: 'x' | 'y'): Promise<(v: number) => number> {
  const anchor = axis === 'x' ? 'middle' : 'end';
  const ticks = await p
    .locator(`figure[data-plot="pr"] svg g.axes text.tick[text-anchor="${anchor}"]`)
    .evaluateAll((ts, a) => ts.map((t) => ({ value: Number(t.textContent), at: Number(t.getAttribute(a === 'x' ? 'x' : 'y')) })), axis);
  // A y tick's label sits 4 px below its grid line.
  const points = ticks.map((t) => ({ value: t.value, at: axis === 'y' ? t.at - 4 : t.at }));
  const [a, b] = [points[0], points[points.length - 1]];
  return (v) => a.at + ((v - a.value) / (b.value - a.value)) * (b.at - a.at);
}

describe('the leaderboard page with significance', () => {
  it('offers significance in its options and passes it, with the trials, to the API', async () => {
    await saveOrganiserToken(page, ADMIN_TOKEN);
    await page.goto(BOARD);
    await page.locator('#board-main tbody tr').first().waitFor(WAIT);
    // Without it: no interval, no group.
    expect(await page.locator('#board-main .ci, .top-group-mark, [data-significance]').count()).toBe(0);
    await page.locator('#board-significance').check();
    await page.fill('#board-trials', String(TRIALS));
    await Promise.all([page.waitForURL(/significance=1/, WAIT), page.locator('#board-trials').press('Enter')]);
    expect(page.url()).toMatch(new RegExp(`trials=${TRIALS}`));
    await page.locator('[data-significance]').waitFor(WAIT);
    expect(await page.locator('#board-significance').isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Download TSV' }).getAttribute('data-download')).toBe(
      `/api/challenges/sig/scores/MENTION?significance=1&trials=${TRIALS}&format=tsv`,
    );
  }, 60_000);

  it("marks the baseline as the organiser's, unranked, and shows each row's intervals as the API gives them", async () => {
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.run)).toEqual(api.runs.map((r) => r.run));
    const baseline = api.runs.find((r) => r.baseline)!;
    expect(baseline).toMatchObject({ run: 'dictionary', rank: null, kind: 'R' });
    expect(rows.find((r) => r.run === 'dictionary')!.what).toBe("organiser's baseline, not ranked");
    expect(ranked()).toHaveLength(3);
    for (const [i, row] of api.runs.entries()) {
      if (row.rank === null && !row.baseline) continue;
      expect(row.ci95, row.run).toBeDefined();
      // The figure as before, and under it (0.790–0.833) with the API's ends.
      expect(rows[i].strict, row.run).toEqual(
        (['p', 'r', 'f'] as const).map((f) => ({
          figure: fixed(row.metrics.strict[f]),
          interval: `95% interval (${fixed(row.ci95![`strict.${f}`].low)}–${fixed(row.ci95![`strict.${f}`].high)})`,
        })),
      );
      // Only the three main figures carry one (left and right match, counts do not).
      expect(rows[i].intervals).toBe(3);
    }
    expect(await page.locator('#board-main caption').textContent()).toContain('in parentheses: 95% bootstrap interval');
  }, 60_000);

  it('marks the top group exactly as the API says, and says what it is and how it was found', async () => {
    const rows = await rowsOf(page);
    expect(rows.filter((r) => r.top).map((r) => r.run)).toEqual(
      api.runs.filter((r) => api.significance.topGroup.includes(r.run)).map((r) => r.run),
    );
    expect(rows.filter((r) => r.mark !== null).map((r) => [r.run, r.mark])).toEqual(
      rows.filter((r) => r.top).map((r) => [r.run, 'top group']),
    );
    // The best ranked run heads the group.
    expect(api.significance.topGroup[0]).toBe(ranked()[0].run);
    expect(await page.locator('[data-significance]').textContent()).toContain(
      `Runs in the top group are not significantly different from the best run (approximate randomization, ${TRIALS} trials, p ≥ 0.05; scope: ${api.significance.scope}`,
    );
    // The pairs, with their p values.
    await page.locator('.significance-pairs summary').click();
    const pairs = await page
      .locator('.significance-pairs tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].slice(0, 3).map((c) => c.textContent)));
    expect(pairs).toEqual(api.significance.pairs.map((p) => [p.a, p.b, p.p >= 0.001 ? p.p.toFixed(3) : p.p.toExponential(1)]));
  }, 60_000);

  it("draws one interval bar per run and axis on the precision/recall plot, at the API's ends", async () => {
    const bars = await page.locator('figure[data-plot="pr"] svg g.interval-bar').evaluateAll((gs) =>
      gs.map((g) => {
        const [bar, capA, capB] = [...g.querySelectorAll('line')].map((l) =>
          Object.fromEntries(['x1', 'x2', 'y1', 'y2'].map((k) => [k, Number(l.getAttribute(k))])),
        );
        return {
          run: g.getAttribute('data-run'),
          axis: g.getAttribute('data-axis'),
          low: Number(g.getAttribute('data-low')),
          high: Number(g.getAttribute('data-high')),
          bar,
          capA,
          capB,
        };
      }),
    );
    const withIntervals = api.runs.filter((r) => r.ci95);
    // Every ranked run (and the baseline, which the API gives intervals too): one bar per axis.
    expect(bars).toHaveLength(2 * withIntervals.length);
    for (const r of ranked())
      for (const axis of ['x', 'y'])
        expect(
          bars.filter((b) => b.run === r.run && b.axis === axis),
          `${r.run} ${axis}`,
        ).toHaveLength(1);
    const x = await axisScale(page, 'x');
    const y = await axisScale(page, 'y');
    for (const row of withIntervals) {
      const recall = row.ci95!['strict.r'];
      const precision = row.ci95!['strict.p'];
      const centre = await page
        .locator(`figure[data-plot="pr"] svg g.point[aria-label^="${row.run}:"] circle`)
        .evaluate((c) => ({ cx: Number(c.getAttribute('cx')), cy: Number(c.getAttribute('cy')) }));
      const xBar = bars.find((b) => b.run === row.run && b.axis === 'x')!;
      const yBar = bars.find((b) => b.run === row.run && b.axis === 'y')!;
      expect([xBar.low, xBar.high, yBar.low, yBar.high]).toEqual([recall.low, recall.high, precision.low, precision.high]);
      // Positions on the plot's own scale (drawn to a tenth of a pixel), through the run's point, with caps at both ends.
      expect(Math.abs(xBar.bar.x1 - x(recall.low))).toBeLessThan(0.25);
      expect(Math.abs(xBar.bar.x2 - x(recall.high))).toBeLessThan(0.25);
      expect([xBar.bar.y1, xBar.bar.y2]).toEqual([centre.cy, centre.cy]);
      expect([xBar.capA.x1, xBar.capB.x1]).toEqual([xBar.bar.x1, xBar.bar.x2]);
      expect(Math.abs(yBar.bar.y1 - y(precision.low))).toBeLessThan(0.25);
      expect(Math.abs(yBar.bar.y2 - y(precision.high))).toBeLessThan(0.25);
      expect([yBar.bar.x1, yBar.bar.x2]).toEqual([centre.cx, centre.cx]);
      expect([yBar.capA.y1, yBar.capB.y1]).toEqual([yBar.bar.y1, yBar.bar.y2]);
    }
    // The plot's text alternative says what the bars are.
    expect(await page.locator('figure[data-plot="pr"] svg desc').textContent()).toContain('bars: 95% bootstrap intervals');
    expect(await page.locator('figure[data-plot="pr"] figcaption').textContent()).toContain(
      "Bars: each run's 95% bootstrap interval of its recall and precision.",
    );
  }, 60_000);

  it('is axe-clean with significance on, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) expect(await axeViolations(page, width), `at ${width} px`).toEqual([]);
    await screenshot(page, 'leaderboard-significance.png', 1280);
    await screenshot(page, 'leaderboard-significance-390.png', 390);
    expect(errors).toEqual([]);
  }, 120_000);

  it('carries the top group in the TSV download, true or false on every row', async () => {
    const res = await ms.app!.inject({ method: 'GET', url: `${SCORES}&format=tsv`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    const [header, ...lines] = res.body
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const column = header.indexOf('topGroup');
    expect(column).toBeGreaterThan(header.indexOf('ci95.strict.f.high'));
    expect(header.slice(-2)).toEqual(['baseline', 'rank']);
    expect(lines.map((l) => [l[0], l[column]])).toEqual(api.runs.map((r) => [r.run, String(api.significance.topGroup.includes(r.run))]));
    const plain = await ms.app!.inject({
      method: 'GET',
      url: '/api/challenges/sig/scores/MENTION?format=tsv',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(plain.body.split('\n')[0].split('\t')).not.toContain('topGroup');
  }, 60_000);
});
