// A leaderboard over a literature-scale MENTION challenge (issue 36, item 5: a million
// articles in ≤ 30 s with the API process under 1 GiB). The challenge is built directly
// with SQL (generate_series), as fast as the database writes: `articles` abstracts with an
// organiser id, 3 servers' stored answers (4–9 mentions each, a third with a MeSH id; one
// server answers 95% of them, one 90%, one every one) and the gold standard one row per
// document, as a gold upload stores it for a streamed family (gold_documents; the whole
// body, which a streamed leaderboard never reads, is a placeholder here: a 300 MB JSON
// text built in SQL would only cost the bench time). Then one `metaserver api` process
// (from the bundle) answers GET /api/challenges/:slug/scores/MENTION twice (cold, warm)
// and once with the consensus rows (BENCH_LEADERBOARDS=cold,warm,consensus picks); figures: time of each, the process's resident memory
// before, its peak during (VmHWM), and the database's size.
//   DATABASE_URL=postgres://… node --import tsx bench/leaderboard-scale.ts [articles=100000] [servers=3]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ADMIN, fmt, machine, printSqlStats, startBench, startProfile, stopProfile } from './support/harness.ts';
import { startWorker } from './support/worker-process.ts';

if (!process.env.DATABASE_URL) {
  console.error('bench/leaderboard-scale.ts needs DATABASE_URL (the api process reads the challenge from PostgreSQL)');
  process.exit(2);
}
const ARTICLES = Number(process.argv[2] ?? 100_000);
const SERVERS = Number(process.argv[3] ?? 3);

const status = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function ok<T>(what: string, res: { status: number; body: T }): T {
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** One mention of document g, number s, as SQL: spans on a grid of 10, types and ids by hash, so runs match the gold in part. */
const MENTION_SQL = (salt: string) => `
  jsonb_build_object('start', ((g * 7 + s * 13 + ${salt}) % 12) * 10, 'end', ((g * 7 + s * 13 + ${salt}) % 12) * 10 + 4 + ((g + s) % 2),
    'type', (array['Chemical','Disease','Gene'])[1 + (g + s) % 3], 'text', 'w')
  || case when (g + s) % 3 = 0 then jsonb_build_object('ids', jsonb_build_array('MESH:D00' || lpad(((g * s) % 5000)::text, 4, '0'))) else '{}'::jsonb end`;

async function build(db: import('../src/db/database.ts').Database, challengeId: number, serverIds: number[]): Promise<void> {
  let t = performance.now();
  await db.query(
    `insert into articles (challenge_id, organiser_id, text, text_sha256)
     select $1, 'PM' || lpad(g::text, 8, '0'), 'Title ' || g || E'.\\nAbstract of article ' || g || '.', md5(g::text)
     from generate_series(1, $2::int) g`,
    [challengeId, ARTICLES],
  );
  console.log(`  articles: ${ARTICLES} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  for (const [k, server] of serverIds.entries()) {
    t = performance.now();
    await db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select a.id, $2, jsonb_build_object('MENTION', (select jsonb_agg(${MENTION_SQL(String(k))}) from generate_series(1, 4 + (g * 31 + ${k}) % 6) s)), 1, 1, 300
       from (select id, substr(organiser_id, 3)::int as g from articles where challenge_id = $1) a
       where (a.g * 17 + ${k}) % 20 >= ${k}`,
      [challengeId, server],
    );
    console.log(`  answers of server ${k + 1}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  t = performance.now();
  await db.query(
    `insert into gold_standards (challenge_id, task, body, documents, items) values ($1, 'MENTION', '{"documents": {}}', $2, 0)`,
    [challengeId, ARTICLES],
  );
  // The gold: 3–8 mentions per document, part of them where the servers put theirs.
  await db.query(
    `insert into gold_documents (challenge_id, task, doc, body)
     select $1, 'MENTION', 'PM' || lpad(g::text, 8, '0'), jsonb_build_object('ann', (
       select string_agg(format(E'T%s\\t%s %s %s\\tw', s, (array['Chemical','Disease','Gene'])[1 + (g + s) % 3],
                                ((g * 7 + s * 13 + (s % 2)) % 12) * 10, ((g * 7 + s * 13 + (s % 2)) % 12) * 10 + 4 + ((g + s) % 2))
                         || case when (g + s) % 3 = 0 then format(E'\\nN%s\\tReference T%s MESH:D00%s\\tw', s, s, lpad(((g * s) % 5000)::text, 4, '0')) else '' end,
                         E'\\n')
       from generate_series(1, 3 + (g * 13) % 6) s))::text
     from generate_series(1, $2::int) g`,
    [challengeId, ARTICLES],
  );
  await db.query(`analyze articles; `);
  await db.query(`analyze answers`);
  await db.query(`analyze gold_documents`);
  console.log(`  gold: ${ARTICLES} documents in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const bench = await startBench({ workers: false });
console.log(machine());
console.log(`database: ${bench.database.kind}; MENTION, ${ARTICLES} abstracts × ${SERVERS} servers, one api process (from the bundle)`);
try {
  const slug = 'lbscale';
  ok('create challenge', await bench.call('POST', '/api/challenges', { slug, name: 'Leaderboard scale', tasks: ['MENTION'] }, ADMIN));
  const team = ok(
    'register team',
    await bench.call<{ token: string }>('POST', '/api/teams', { name: 'lb team', contact: 'bench@example.org' }),
  );
  const serverIds: number[] = [];
  for (let k = 0; k < SERVERS; k++) {
    const body = { name: `s${k}`, url: 'http://127.0.0.1:9/', tasks: ['MENTION'] };
    serverIds.push(ok('register server', await bench.call<{ id: number }>('POST', `/api/challenges/${slug}/servers`, body, team.token)).id);
  }
  const db = bench.database.db;
  const challengeId = (await db.query<{ id: number }>('select id from challenges where slug = $1', [slug]))[0].id;
  console.log('building the challenge with SQL:');
  await build(db, challengeId, serverIds);
  const size = await db.query<{ n: string }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and c.relkind in ('r', 'm')`,
  );
  console.log(`  database: ${(Number(size[0].n) / 2 ** 20).toFixed(0)} MiB`);

  if (process.env.BENCH_IN_PROCESS === '1') {
    // Profiling aid: the route in this process (BENCH_SQL_STATS=1 times each statement, BENCH_CPU_PROF the CPU).
    await startProfile();
    const t0 = performance.now();
    ok('leaderboard', await bench.call('GET', `/api/challenges/${slug}/scores/MENTION`, undefined, ADMIN));
    console.log(`leaderboard in process: ${fmt((performance.now() - t0) / 1000)} s`);
    await stopProfile();
    printSqlStats();
    process.exitCode = 0;
  }
  const api = await startWorker(bench, { command: 'api', env: { LOG_LEVEL: 'info' } });
  try {
    const base = api.address!;
    const rssBefore = status(api.pid, 'VmRSS');
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, status(api.pid, 'VmRSS'))), 50);
    const rounds = (process.env.BENCH_LEADERBOARDS ?? 'cold,warm,consensus').split(',');
    for (const [name, query] of [
      ['cold', ''],
      ['warm', ''],
      ['consensus', '?consensus=1'],
    ].filter(([name]) => rounds.includes(name))) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/challenges/${slug}/scores/MENTION${query}`, { headers: { authorization: `Bearer ${ADMIN}` } });
      const board = (await res.json()) as { runs?: Array<{ run: string; answered?: number; metrics: Record<string, any> }> };
      const seconds = (performance.now() - t0) / 1000;
      if (res.status !== 200) throw new Error(`leaderboard: HTTP ${res.status} ${JSON.stringify(board)}`);
      console.log(`leaderboard ${name}: ${fmt(seconds)} s, ${board.runs!.length} rows`);
      for (const r of board.runs!)
        console.log(
          `  ${r.run.padEnd(16)} answered ${String(r.answered ?? '—').padStart(8)}  strict P/R/F ${fmt(r.metrics.strict?.p, 4)} ${fmt(r.metrics.strict?.r, 4)} ${fmt(r.metrics.strict?.f, 4)}  id F ${fmt(r.metrics.id?.f, 4)}`,
        );
    }
    clearInterval(sampler);
    console.log(
      `api process resident memory: ${rssBefore.toFixed(0)} MiB before, peak ${Math.max(peak, status(api.pid, 'VmHWM')).toFixed(0)} MiB (VmHWM, whole life)`,
    );
  } finally {
    api.stop();
    await api.exited;
  }
} finally {
  await bench.stop();
}
