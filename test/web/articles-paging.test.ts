// The organiser's articles page pages by key, as the JSON list does: its "Next 100" links
// carry the API's `next` as ?after= with the filters kept, later pages say which articles
// they show instead of a position, and the first page's total comes from the index and the
// delivery counters. A real meta-server and a real loopback server answering two articles
// of three and sending a malformed answer for the third (failed for good: one attempt);
// the page and its fragment are read over HTTP as the browser's script reads them, and
// walked by their Next links. 300 articles: every list here ends on a full page, the case
// where a list paged by "was the page full?" offered a Next link to an empty page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, serverSettled, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const N = 300;
const name = (i: number) => `P${String(i).padStart(3, '0')}`;
/** Every third article is failed by the server (its text says so, which the server reads). */
const fails = (i: number) => i % 3 === 0;
const ARTICLES = Array.from({ length: N }, (_, k) => ({
  id: name(k + 1),
  text: `Article ${name(k + 1)}: BRCA1 (P38398) binds TP53.${fails(k + 1) ? ' FAIL' : ''}`,
}));
const ALL = ARTICLES.map((a) => a.id);
const FAILED = ALL.filter((_, k) => fails(k + 1));
const ANSWERED = ALL.filter((_, k) => !fails(k + 1));

let ms: TestMetaserver;
let tagger: FaultyServer;
let serverId = 0;

beforeAll(async () => {
  ms = await startTestMetaserver();
  await ms.challenge('pages', { name: 'Paged', tasks: ['INT'], maxAttempts: 1, retryDelaySeconds: 0 });
  await ms.articles('pages', ARTICLES);
  tagger = await startFaultyServer({
    kind: 'custom',
    // An answer out of range (a confidence above 1) fails the article at once.
    handler: (text) => ({ normalizations: [{ dbid: 'P38398', confidence: text.includes('FAIL') ? 1.5 : 0.9 }] }),
  });
  const token = (await ms.team('Paging Lab')).token;
  serverId = (await ms.server('pages', token, { name: 'tagger', url: tagger.url, tasks: ['INT'], concurrency: 16 })).id;
  await ms.startServer(serverId, token);
  // Generous: on a loaded machine 300 round trips and their answers' storage take a while.
  await serverSettled(ms, serverId, N, 150_000);
}, 180_000);

afterAll(async () => {
  await ms?.stop();
  await tagger?.close();
});

const unescape = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
const textOf = (s: string) => unescape(s.replace(/<[^>]*>/g, ''));

interface Shown {
  fragmentUrl: string;
  position: string;
  names: string[];
  next: string | null;
  first: string | null;
  html: string;
}

/** A page as the browser gets it: the page (no token), then its fragment with the organiser's token. */
async function open(path: string): Promise<Shown> {
  const page = await ms.app!.inject({ method: 'GET', url: path });
  expect(page.statusCode, path).toBe(200);
  const fragmentUrl = unescape(/data-fragment="([^"]*\/articles[^"]*)"/.exec(page.body)![1]);
  const fragment = await ms.app!.inject({ method: 'GET', url: fragmentUrl, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(fragment.statusCode, fragment.body).toBe(200);
  const html = fragment.body;
  const names = [...html.matchAll(/<th scope="row"><a href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1]);
  const link = (attr: string) => {
    const m = new RegExp(`<a href="([^"]*)" ${attr}>`).exec(html);
    return m ? unescape(m[1]) : null;
  };
  const position = /<p data-list-position>(.*?)<\/p>/s.exec(html);
  return {
    fragmentUrl,
    position: position ? textOf(position[1]) : '',
    names,
    next: link('data-next-page'),
    first: link('data-first-page'),
    html,
  };
}

/** Every page from `path` on by its Next links: what each showed. */
async function walk(path: string): Promise<Shown[]> {
  const pages = [await open(path)];
  while (pages[pages.length - 1].next !== null) {
    expect(pages.length, 'more pages than the list has').toBeLessThan(10);
    pages.push(await open(pages[pages.length - 1].next!));
  }
  return pages;
}

describe('the articles page, paged by key', () => {
  it('walks every article once, in load order, by its Next links; later pages name their first and last articles', async () => {
    const pages = await walk('/challenges/pages/articles');
    expect(pages.map((p) => p.names.length)).toEqual([100, 100, 100]);
    expect(pages.flatMap((p) => p.names)).toEqual(ALL);
    expect(pages[0].position).toBe(`Articles 1–100 of ${N}.`);
    expect(pages[0].first).toBeNull();
    expect(pages[1].position).toBe('100 articles, P101 to P200 in load order (the first page has the total).');
    expect(pages[2].position).toBe('100 articles, P201 to P300 in load order (the first page has the total).');
    for (const p of pages.slice(1)) {
      expect(p.fragmentUrl).toMatch(/[?&]after=\d+/);
      expect(p.fragmentUrl).not.toMatch(/offset=/);
      expect(p.first).toBe('/challenges/pages/articles');
    }
    // The last page is full and nothing follows it: no Next link to an empty page.
    expect(pages[2].next).toBeNull();
  });

  it("keeps a server's outcome through the pages, its total from the counters", async () => {
    const pages = await walk(`/challenges/pages/articles?server=${serverId}&outcome=answered`);
    expect(pages.flatMap((p) => p.names)).toEqual(ANSWERED);
    expect(pages[0].position).toBe(`Articles 1–100 of ${ANSWERED.length} that server tagger (${serverId}) answered.`);
    expect(pages[1].position).toBe(
      `100 articles that server tagger (${serverId}) answered, ${ANSWERED[100]} to ${ANSWERED[199]} in load order (the first page has the total).`,
    );
    for (const p of pages) expect(p.fragmentUrl).toContain(`server=${serverId}&outcome=answered`);
    expect(pages[1].first).toBe(`/challenges/pages/articles?server=${serverId}&outcome=answered`);
    const failed = await walk(`/challenges/pages/articles?server=${serverId}&outcome=failed`);
    expect(failed.flatMap((p) => p.names)).toEqual(FAILED);
    expect(failed[0].position).toBe(`Articles 1–100 of ${FAILED.length} that server tagger (${serverId}) failed for good.`);
    expect(failed).toHaveLength(1);
    const pending = await open(`/challenges/pages/articles?server=${serverId}&outcome=pending`);
    expect(pending.names).toEqual([]);
  });

  it('keeps a state through the pages without counting it over the challenge', async () => {
    const done = await walk('/challenges/pages/articles?state=done');
    expect(done.flatMap((p) => p.names)).toEqual(ALL);
    for (const p of done) expect(p.fragmentUrl).toContain('state=done');
    // No counter holds a state across servers: the first page says what it knows.
    expect(done[0].position).toMatch(/^Articles 1–100 of more than 100 done \(not counted/);
    expect(done[1].position).toBe('100 done articles, P101 to P200 in load order.');
    const failed = await walk('/challenges/pages/articles?state=failed');
    expect(failed.flatMap((p) => p.names)).toEqual(FAILED);
    // One page, the last: its count is exact without counting.
    expect(failed[0].position).toBe(`Articles 1–100 of ${FAILED.length} failed.`);
  });

  it("follows an old link's offset up to the API's limit and on by key; explains one past it", async () => {
    const pages = await walk('/challenges/pages/articles?state=done&offset=150');
    expect(pages[0].position).toMatch(/^Articles 151–250 of more than 250 done/);
    expect(pages.flatMap((p) => p.names)).toEqual(ALL.slice(150));
    expect(pages[1].fragmentUrl).toMatch(/after=\d+/);
    expect(pages[0].first).toBe('/challenges/pages/articles?state=done');
    const counted = await open('/challenges/pages/articles?offset=250');
    expect(counted.position).toBe(`Articles 251–300 of ${N}.`);
    expect(counted.next).toBeNull();
    const far = await open(`/challenges/pages/articles?server=${serverId}&outcome=answered&offset=20000`);
    expect(far.names).toEqual([]);
    expect(textOf(far.html)).toMatch(
      /^This link starts at article 20,001, counted from the first\. The list no longer skips more than 10,000 articles/,
    );
    expect(far.first).toBe(`/challenges/pages/articles?server=${serverId}&outcome=answered`);
    // A key past the last article, or a malformed one (read as the first page).
    const past = await open('/challenges/pages/articles?after=999999999');
    expect(textOf(past.html)).toMatch(/^No more articles: the list ends before this page\. First page$/);
    expect((await open('/challenges/pages/articles?after=x1')).names).toEqual(ALL.slice(0, 100));
  });
});
