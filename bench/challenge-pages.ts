// The glance's and the server page's database reads on a challenge of ARTICLES articles × 3
// servers, filled by SQL (deliveries and attempts of every pair, an answer each), timed
// while a writer moves deliveries between states as dispatch does (batches of 500 in one
// statement). Prints p50/p95 of: the glance's deliveries by state (challengeProgress), the
// server page's reads (progress, timing, errors, failuresByKind, histogram, in parallel as
// lifecycle.ts reads them), the first and a later page of the article list, and a page of
// the streamed export. A scratch schema is made and dropped.
//   DATABASE_URL=postgres://… node --import tsx bench/challenge-pages.ts [articles=1000000] [samples=50]
import { performance } from 'node:perf_hooks';
import { AnswerRepository } from '../src/articles/answer-repository.ts';
import { ArticleRepository } from '../src/articles/repository.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { ServerStatusRepository } from '../src/servers/status-repository.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL to a PostgreSQL database this bench may make a scratch schema in');
const ARTICLES = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = Number(process.argv[3] ?? 50);
const schema = `bench_pages_${process.pid}`;
const db = await openPostgres({ url, schema, max: 8 });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function fill(): Promise<{ challengeId: number; servers: number[] }> {
  await migrate(db);
  const [c] = await db.query<{ id: number }>(
    `insert into challenges (slug, name, tasks) values ('bench', 'Bench', '{MENTION}') returning id`,
  );
  const [t] = await db.query<{ id: number }>(
    `insert into teams (name, contact, token_hash) values ('bench', 'bench@example.org', 'x') returning id`,
  );
  const servers: number[] = [];
  for (const name of ['a', 'b', 'c']) {
    const [s] = await db.query<{ id: number }>(
      `insert into servers (challenge_id, team_id, name, url, tasks, method) values ($1, $2, $3, 'http://127.0.0.1:9/', '{MENTION}', 'annotate') returning id`,
      [c.id, t.id, name],
    );
    servers.push(s.id);
  }
  const started = performance.now();
  await db.query(
    `insert into articles (challenge_id, organiser_id, text, text_sha256)
     select $1, 'PMID' || g, 'An abstract of about one line.', md5(g::text) from generate_series(1, $2) g`,
    [c.id, ARTICLES],
  );
  for (const s of servers) {
    await db.query(`insert into deliveries (article_id, server_id, state) select id, $2, 'done' from articles where challenge_id = $1`, [
      c.id,
      s,
    ]);
    await db.query(
      `insert into attempts (article_id, server_id, n, ms, outcome) select id, $2, 1, (random() * 50)::int, 'ok' from articles where challenge_id = $1`,
      [c.id, s],
    );
    await db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select id, $2, '{"MENTION": [{"start": 3, "end": 11, "text": "abstract"}]}', 1, 1, 1 from articles where challenge_id = $1`,
      [c.id, s],
    );
  }
  await db.exec('analyze');
  console.log(`filled ${ARTICLES} articles × 3 servers in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { challengeId: c.id, servers };
}

try {
  const { challengeId, servers } = await fill();
  const status = new ServerStatusRepository(db);
  const articles = new ArticleRepository(db);
  const answers = new AnswerRepository(db);
  let writing = true;
  let moved = 0;
  // The writer: 500 deliveries a statement, done → active → done, as settling pairs move.
  const writer = (async () => {
    for (let round = 0; writing; round++) {
      const to = round % 2 === 0 ? 'active' : 'done';
      const from = to === 'active' ? 'done' : 'active';
      const rows = await db.query(
        `update deliveries set state = $3 where (article_id, server_id) in (
           select article_id, server_id from deliveries where server_id = $1 and state = $2 limit 500) returning 1`,
        [servers[round % 3], from, to],
      );
      moved += rows.length;
    }
  })();
  const reads: Record<string, () => Promise<unknown>> = {
    'glance: deliveries by state': () => status.challengeProgress(challengeId),
    'server page': () =>
      Promise.all([
        status.progress(servers[0]),
        status.timing(servers[0]),
        status.errors(servers[0], 100, 0),
        status.failures(servers[0]),
        status.histogram(servers[0]),
      ]),
    'article list, first page (with total)': () =>
      articles.listWithState(challengeId, { state: null }, { limit: 100, offset: 0, after: null, count: true }),
    'article list, a page by key': () =>
      articles.listWithState(challengeId, { state: null }, { limit: 100, offset: 0, after: ARTICLES / 2, count: false }),
    'export page of 500': () => answers.exportPage(servers[0], challengeId, 'MENTION', 'PMID5', 500),
  };
  for (const [name, read] of Object.entries(reads)) {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await read();
      times.push(performance.now() - t0);
    }
    console.log(`${name}: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`);
  }
  writing = false;
  await writer;
  console.log(`writer moved ${moved} deliveries meanwhile`);
} finally {
  await db.exec(`drop schema ${schema} cascade`);
  await db.close();
}
