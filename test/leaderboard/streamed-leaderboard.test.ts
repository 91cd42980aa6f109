// A MENTION leaderboard read page by page (src/leaderboard/streamed-leaderboard.ts) against
// the same challenge scored whole: a randomised challenge of 3,000 articles × 3 servers (one
// that never answered), background articles outside the gold, gold documents without an
// article, concept ids on part of the mentions (so the NORM figures are reported too), an
// offline run, and the consensus rows. The figures must be identical, not close. And the
// bound that keeps a million articles in bounded memory, without timing: no query reads
// more than a page of documents, and nothing reads a whole run or the whole gold body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/challenges/repository.ts';
import { LeaderboardService, type LeaderboardRepositories } from '../../src/leaderboard/service.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const ARTICLES = 3_000;
const PAGE = 400;
const TYPES = ['protein', 'chemical', 'disease'];

/** mulberry32: the same challenge every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Span {
  start: number;
  end: number;
  type: string;
  ids?: string[];
}

/** A few mentions from a small space of spans, so runs and gold agree on some, nearly agree on others. */
function spans(rnd: () => number, n: number): Span[] {
  return Array.from({ length: n }, () => {
    const start = Math.floor(rnd() * 12) * 5;
    const span: Span = { start, end: start + 3 + Math.floor(rnd() * 3), type: TYPES[Math.floor(rnd() * TYPES.length)] };
    if (rnd() < 0.4) span.ids = [`MESH:D00000${Math.floor(rnd() * 4)}`];
    return span;
  });
}

function ann(mentions: Span[]): string {
  const lines: string[] = [];
  let n = 0;
  mentions.forEach((m, i) => {
    lines.push(`T${i + 1}\t${m.type} ${m.start} ${m.end}\tw${i}`);
    for (const id of m.ids ?? []) lines.push(`N${++n}\tReference T${i + 1} ${id}\tw${i}`);
  });
  return lines.join('\n');
}

const docId = (i: number) => `PM${String(i).padStart(6, '0')}`;

let ms: TestMetaserver;
let challenge: Challenge;
let repos: LeaderboardRepositories;
const reads = { pageDocs: [] as number[], goldLimits: [] as number[], wholeRuns: 0, goldBodies: 0 };

/** The runtime's repositories, with the reads a streamed leaderboard must (not) make counted. */
function countedRepositories(): LeaderboardRepositories {
  const r = ms.ctx.repos;
  return {
    ...r,
    answers: Object.assign(Object.create(r.answers) as typeof r.answers, {
      onlineAnswersOf: (c: number, s: readonly number[], t: 'MENTION', docs: readonly string[]) => {
        reads.pageDocs.push(docs.length);
        return r.answers.onlineAnswersOf(c, s, t, docs);
      },
      onlineAnswers: (s: number, t: 'MENTION') => {
        reads.wholeRuns++;
        return r.answers.onlineAnswers(s, t);
      },
      challengeAnswers: (c: number, s: readonly number[]) => {
        reads.wholeRuns++;
        return r.answers.challengeAnswers(c, s);
      },
    }),
    gold: Object.assign(Object.create(r.gold) as typeof r.gold, {
      goldDocumentPage: (c: number, t: 'MENTION', after: string | null, limit: number) => {
        reads.goldLimits.push(limit);
        return r.gold.goldDocumentPage(c, t, after, limit);
      },
      gold: (c: number, t: 'MENTION') => {
        reads.goldBodies++;
        return r.gold.gold(c, t);
      },
    }),
  };
}

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('stream', { tasks: ['MENTION'] });
  const teamA = await ms.team('Stream A');
  const teamB = await ms.team('Stream B');
  const servers = [
    (await ms.server('stream', teamA.token, { name: 'one', url: 'http://127.0.0.1:9/', tasks: ['MENTION'] })).id as number,
    (await ms.server('stream', teamB.token, { name: 'two', url: 'http://127.0.0.1:9/', tasks: ['MENTION'] })).id as number,
    (await ms.server('stream', teamB.token, { name: 'never', url: 'http://127.0.0.1:9/', tasks: ['MENTION'] })).id as number,
  ];
  challenge = (await ms.ctx.repos.challenges.bySlug('stream'))!;
  const db = ms.db;
  // Articles 1..3000; the gold holds 1..2700 (the rest are background) and 40 documents no article has.
  await db.query(
    `insert into articles (challenge_id, organiser_id, text, text_sha256)
     select $1, 'PM' || lpad(g::text, 6, '0'), 'text', 'sha' from generate_series(1, $2::int) g`,
    [challenge.id, ARTICLES],
  );
  const rnd = random(36);
  const gold: Record<string, { ann: string }> = {};
  for (let i = 1; i <= 2700; i++) gold[docId(i)] = { ann: ann(spans(rnd, Math.floor(rnd() * 6))) };
  for (let i = 1; i <= 40; i++) gold[`GONE${i}`] = { ann: ann(spans(rnd, 2)) };
  for (const [k, server] of servers.slice(0, 2).entries()) {
    const docs: string[] = [];
    const results: string[] = [];
    for (let i = 1; i <= ARTICLES; i++) {
      if (rnd() < 0.05 * (k + 1)) continue; // some articles unanswered
      docs.push(docId(i));
      results.push(JSON.stringify({ MENTION: spans(rnd, Math.floor(rnd() * 7)).map((m) => ({ ...m, text: 'w' })) }));
    }
    await db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select a.id, $2, u.r::jsonb, 1, 1, 1 from unnest($3::text[], $4::text[]) u(doc, r)
       join articles a on a.challenge_id = $1 and a.organiser_id = u.doc`,
      [challenge.id, server, docs, results],
    );
  }
  const put = await ms.request('PUT', '/api/challenges/stream/gold/MENTION', { documents: gold }, ADMIN_TOKEN);
  expect(put.status).toBe(200);
  const offline: Record<string, { ann: string }> = {};
  for (let i = 1; i <= ARTICLES; i += 2) offline[docId(i)] = { ann: ann(spans(rnd, 3)) };
  const run = await ms.request('POST', '/api/challenges/stream/runs/MENTION', { documents: offline }, teamA.token);
  expect(run.status).toBe(201);
  repos = countedRepositories();
}, 120_000);

afterAll(async () => ms?.stop());

describe('a MENTION leaderboard read page by page', () => {
  const requests = [
    { name: 'multi-class', request: {}, consensus: false },
    { name: 'single-class, with the consensus', request: { singleClass: true }, consensus: true },
  ];

  it.each(requests)('gives the figures of the whole-run scoring ($name), reading no more than a page at a time', async (c) => {
    const options = c.request;
    reads.pageDocs.length = 0;
    reads.goldLimits.length = 0;
    reads.wholeRuns = 0;
    reads.goldBodies = 0;
    const streamed = await new LeaderboardService(repos, PAGE).leaderboard(challenge, 'MENTION', c.request, options, c.consensus);
    // Bounded: every page at most PAGE documents, all of them visited, nothing read whole.
    expect(Math.max(...reads.pageDocs)).toBeLessThanOrEqual(PAGE);
    expect(reads.pageDocs.reduce((a, b) => a + b, 0)).toBe(2740);
    expect(new Set(reads.goldLimits)).toEqual(new Set([PAGE]));
    expect(reads.wholeRuns).toBe(0);
    expect(reads.goldBodies).toBe(0);
    expect(streamed.runs.map((r) => r.run)).toEqual(
      expect.arrayContaining(['T1_S1', 'T2_S1', 'T2_S2', 'T1_R1', ...(c.consensus ? ['consensus-vote'] : [])]),
    );
    expect(streamed.runs.find((r) => r.serverName === 'never')).toMatchObject({ answered: 0 });
    expect(streamed.runs[0].metrics).toHaveProperty('identifier');

    // The same challenge scored whole: a gold without its per-document rows (as loaded before them) takes that path.
    const perDocument = await ms.db.query<{ doc: string; body: string }>(
      'select doc, body from gold_documents where challenge_id = $1 order by doc',
      [challenge.id],
    );
    await ms.db.query('delete from gold_documents where challenge_id = $1', [challenge.id]);
    try {
      const whole = await new LeaderboardService(ms.ctx.repos).leaderboard(challenge, 'MENTION', c.request, options, c.consensus);
      expect(streamed).toEqual(whole);
    } finally {
      await ms.db.query(
        `insert into gold_documents (challenge_id, task, doc, body) select $1, 'MENTION', d, b from unnest($2::text[], $3::text[]) u(d, b)`,
        [challenge.id, perDocument.map((p) => p.doc), perDocument.map((p) => p.body)],
      );
    }
  });

  it('is what the route answers', async () => {
    await ms.request('POST', '/api/challenges/stream/close', undefined, ADMIN_TOKEN);
    const route = await ms.request('GET', '/api/challenges/stream/scores/MENTION', undefined, ADMIN_TOKEN);
    expect(route.status).toBe(200);
    const paged = await new LeaderboardService(ms.ctx.repos, PAGE).leaderboard(challenge, 'MENTION', {}, {});
    expect(route.body).toEqual(JSON.parse(JSON.stringify(paged)));
  });

  it('replaces the per-document gold with the gold (nothing of the old one left)', async () => {
    const put = await ms.request('PUT', '/api/challenges/stream/gold/MENTION', { documents: { PM000001: { ann: '' } } }, ADMIN_TOKEN);
    expect(put.status).toBe(200);
    const rows = await ms.db.query<{ doc: string }>('select doc from gold_documents where challenge_id = $1', [challenge.id]);
    expect(rows.map((r) => r.doc)).toEqual(['PM000001']);
  });
});
