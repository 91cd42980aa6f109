// The article page with mentions carrying concept ids, in a real headless Chromium: the
// viewer's panel links each id to its database (MeSH, NCBI Gene, NCBI Taxonomy, OMIM,
// ChEBI, dbSNP), shows an unknown namespace as text, says how many servers gave each id and
// whether the consensus kept it; no axe-core violation at 390 and 1280 px, no console error.
// The answers are stored directly (as the dispatcher stores validated answers), so the page
// alone is under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { axeViolations, collectPageErrors, launchChromium } from './browser-support.ts';

const TEXT = 'Lidocaine caused asystole in a patient with BRCA1 and OMIM-listed disease; glucose, rs2234671 and mice too.';
const WAIT = { timeout: 30_000 };

const at = (text: string, type: string, ids?: string[]) => {
  const start = TEXT.indexOf(text);
  return { start, end: start + text.length, text, type, ...(ids ? { ids } : {}) };
};
const ALPHA = [
  at('Lidocaine', 'Chemical', ['MESH:D008012']),
  at('asystole', 'Disease', ['MESH:D006323', 'OMIM:176807']),
  at('BRCA1', 'Gene', ['NCBIGene:672']),
  at('glucose', 'Chemical', ['CHEBI:17234']),
  at('rs2234671', 'SNP', ['dbSNP:rs2234671']),
  at('mice', 'Species', ['NCBITaxon:10090']),
];
const BETA = [
  at('Lidocaine', 'Chemical', ['MESH:D008012']),
  at('asystole', 'Disease', ['MESH:D006323']),
  at('BRCA1', 'Gene', ['LocalGenes:brca-1']),
  at('mice', 'Species'),
];

let ms: TestMetaserver;
let browser: Browser;
let page: Page;
let base: string;
let errors: string[];
let articleId: string;

beforeAll(async () => {
  browser = await launchChromium();
  ms = await startTestMetaserver({ workers: false });
  base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  const db = ms.database.db;
  const servers: number[] = [];
  for (const team of ['Alpha Lab', 'Beta Lab']) {
    const token = (await ms.team(team)).token;
    servers.push((await ms.server('live', token, { name: 'normalizer', url: 'http://127.0.0.1:9/', tasks: ['MENTION'] })).id);
  }
  const res = await ms.request('POST', '/api/articles', { text: TEXT });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  articleId = res.body.id;
  for (const [i, mentions] of [ALPHA, BETA].entries()) {
    await db.query(
      "insert into deliveries (article_id, server_id, state, attempts, last_outcome) values ($1, $2, 'done', 1, 'ok') on conflict (article_id, server_id) do update set state = 'done'",
      [articleId, servers[i]],
    );
    await db.query('insert into answers (article_id, server_id, result, attempt_n, ms, bytes) values ($1, $2, $3, 1, 1, 1)', [
      articleId,
      servers[i],
      JSON.stringify({ MENTION: mentions }),
    ]);
  }
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  errors = collectPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ms?.stop();
});

const panel = (p: Page) => p.locator('[data-viewer-panel]');

async function select(text: string): Promise<void> {
  await page.locator('[data-article-text] mark', { hasText: text }).first().click();
  await expect.poll(() => panel(page).textContent()).toContain(`“${text}”`);
}

const links = async () =>
  panel(page)
    .locator('a')
    .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));

describe('the article page links each concept id to its database', () => {
  it('MeSH and OMIM for a disease, with who gave each id and whether the consensus kept it', async () => {
    await page.goto(`${base}/articles/${articleId}`);
    await page.locator('[data-viewer][data-viewer-ready]').waitFor(WAIT);
    await select('asystole');
    expect(await links()).toEqual([
      ['MeSH D006323', 'https://meshb.nlm.nih.gov/record/ui?ui=D006323'],
      ['OMIM 176807', 'https://omim.org/entry/176807'],
    ]);
    const text = await panel(page).textContent();
    expect(text).toContain('Concept identifiers:');
    // Both servers found the span; MESH:D006323 has 2/2 of its judges' weight, OMIM:176807 1/2: both pass 0.5.
    expect(text).toContain('MeSH D006323 (MESH:D006323; given by 2 servers, kept by the consensus)');
    expect(text).toContain('OMIM 176807 (OMIM:176807; given by 1 server, kept by the consensus)');
  }, 60_000);

  it('NCBI Gene linked, an unknown namespace as text; ChEBI, dbSNP and NCBI Taxonomy linked', async () => {
    await select('BRCA1');
    expect(await links()).toEqual([['NCBI Gene 672', 'https://www.ncbi.nlm.nih.gov/gene/672']]);
    expect(await panel(page).textContent()).toContain('LocalGenes:brca-1 (LocalGenes:brca-1; given by 1 server, kept by the consensus)');
    await select('glucose');
    expect(await links()).toEqual([['ChEBI 17234', 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:17234']]);
    await select('rs2234671');
    expect(await links()).toEqual([['dbSNP rs2234671', 'https://www.ncbi.nlm.nih.gov/snp/rs2234671']]);
    await select('mice');
    expect(await links()).toEqual([['NCBI Taxonomy 10090', 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=10090']]);
  });

  it("shows the consensus's mentions with their kept ids when switched on", async () => {
    await page.locator('[data-viewer-only="2"]').click();
    await select('mice');
    // Beta found "mice" without ids: only Alpha judges its id.
    expect(await links()).toEqual([['NCBI Taxonomy 10090', 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=10090']]);
    expect(await panel(page).textContent()).toContain('(NCBITaxon:10090; given by 1 server, kept by the consensus)');
  });

  it('has no axe-core violation at 390 and 1280 px, and no console error', async () => {
    await select('asystole');
    for (const width of [390, 1280]) expect(await axeViolations(page, width), `at ${width} px`).toEqual([]);
    expect(errors).toEqual([]);
  });
});
