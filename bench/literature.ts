// The literature at scale (issue 36): a PubMed-sized corpus of abstracts through instant
// servers, as an installation runs it — one `metaserver api` and W `metaserver worker`
// processes on PostgreSQL. Figures, each against its goal:
//   import: a generated PubMed `.xml.gz` of N citations (1.5 KB abstracts) loaded with
//     `metaserver import` through the api process — citations per second;
//   Redis: the installation's keys and their memory (MEMORY USAGE over its prefix), the most
//     seen while dispatching (goal ≤ 64 MiB for 1M × 5, flat in the corpus size);
//   settle rate: settled pairs per second against the floor measured in the same run — the
//     same number of calls to the same instant server at the same total concurrency from one
//     plain client (goal ≥ 0.6×);
//   database bytes per settled pair beyond the articles and the answers' content (goal ≤ 600).
//   DATABASE_URL=postgres://… node --import tsx bench/literature.ts [abstracts=1000000] [servers=3] [concurrency=8] [workers=2] [batch=1]
// batch > 1: the servers are registered with that batchSize (system.multicall); the floor
// stays one article per call.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { runImportCommand } from '../src/cli/import.ts';
import { ADMIN, fmt, machine, startBench, TASKS } from './support/harness.ts';
import { startInstantServer } from './support/instant-server.ts';
import { callBodies, directCalls } from './support/floors.ts';
import { startWorker, type WorkerProcess } from './support/worker-process.ts';
import { databaseBytes, redisFigures, rssMiB } from './support/storage-figures.ts';

if (!process.env.DATABASE_URL) {
  console.error('bench/literature.ts needs DATABASE_URL (the api and worker processes share one PostgreSQL)');
  process.exit(2);
}
const ABSTRACTS = Number(process.argv[2] ?? 1_000_000);
const SERVERS = Number(process.argv[3] ?? 3);
const CONCURRENCY = Number(process.argv[4] ?? 8);
const WORKERS = Number(process.argv[5] ?? 2);
const BATCH = Number(process.argv[6] ?? 1);
// BENCH_DOC_BYTES: another document size (full texts: 100000), as a PubMed citation's abstract.
const ABSTRACT_BYTES = Number(process.env.BENCH_DOC_BYTES ?? 1500);

const MiB = (b: number) => fmt(b / 2 ** 20, 1);
const WORDS = 'protein binds receptor kinase expression cells patients mutation inhibitor pathway tumour gene'.split(' ');

/** A citation of about ABSTRACT_BYTES of abstract, the same for the same i. */
function citation(i: number): string {
  const words: string[] = [];
  for (let k = 0, n = 0; n < ABSTRACT_BYTES; k++) {
    const w = WORDS[(i * 7 + k * 13) % WORDS.length];
    words.push(w);
    n += w.length + 1;
  }
  return (
    `<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">${10_000_000 + i}</PMID>` +
    `<Article><ArticleTitle>Title of abstract ${i} about BRCA1.</ArticleTitle><Abstract><AbstractText>${words.join(' ')}.</AbstractText></Abstract></Article>` +
    `</MedlineCitation></PubmedArticle>\n`
  );
}

async function writeCorpus(file: string): Promise<void> {
  async function* xml() {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>\n';
    for (let i = 0; i < ABSTRACTS; i += 1000) {
      let chunk = '';
      for (let j = i; j < Math.min(ABSTRACTS, i + 1000); j++) chunk += citation(j);
      yield chunk;
    }
    yield '</PubmedArticleSet>\n';
  }
  await pipeline(Readable.from(xml()), createGzip({ level: 1 }), createWriteStream(file));
}

const dir = mkdtempSync(join(tmpdir(), 'metaserver-literature-'));
const instant = await startInstantServer({ servers: SERVERS + 1, batches: BATCH > 1 });
const bench = await startBench({ workers: false });
const { db } = bench.database;
const redis = new Redis(bench.runtime.redis.url, { maxRetriesPerRequest: null });
const prefix = bench.config.queuePrefix;
const processes: Array<{ name: string; w: WorkerProcess; rss: number }> = [];
console.log(machine());
console.log(
  `database: ${bench.database.kind}; ${ABSTRACTS} abstracts of ${ABSTRACT_BYTES} B × ${SERVERS} instant servers, concurrency ${CONCURRENCY} each${BATCH > 1 ? `, batches of up to ${BATCH} (system.multicall)` : ''}; one api and ${WORKERS} worker process(es)`,
);
try {
  const api = await startWorker(bench, { command: 'api', env: { LOG_LEVEL: 'info' } });
  processes.push({ name: 'api', w: api, rss: 0 });
  const base = api.address!;

  // The challenge and its servers, paused until the corpus is in.
  const slug = 'literature';
  const created = await bench.call(
    'POST',
    '/api/challenges',
    { slug, name: 'Literature', tasks: TASKS, maxAttempts: 3, retryDelaySeconds: 1, serversPerTeam: 100 },
    ADMIN,
  );
  if (created.status !== 201) throw new Error(`create challenge: HTTP ${created.status}`);
  const team = await bench.call<{ token: string }>('POST', '/api/teams', { name: 'Readers', contact: 'bench@example.org' });
  const serverIds: number[] = [];
  for (let k = 0; k < SERVERS; k++) {
    const s = await bench.call<{ id: number }>(
      'POST',
      `/api/challenges/${slug}/servers`,
      { name: `s${k}`, url: instant.url(k), tasks: TASKS, concurrency: CONCURRENCY, ...(BATCH > 1 ? { batchSize: BATCH } : {}) },
      team.body.token,
    );
    serverIds.push(s.body.id);
  }

  // Import: a PubMed file through `metaserver import` and the api process.
  const file = join(dir, 'pubmed-bench.xml.gz');
  await writeCorpus(file);
  const io = { stdout: () => {}, stderr: () => {}, isTty: false, env: {} };
  let t0 = performance.now();
  const code = await runImportCommand(['--challenge', slug, '--url', base, '--token', ADMIN, '--batch', '1000', file], io);
  if (code !== 0) throw new Error(`metaserver import exited ${code}`);
  const importS = (performance.now() - t0) / 1000;
  console.log(
    `import: ${ABSTRACTS} citations (${MiB(statSync(file).size)} MiB gzipped) in ${fmt(importS, 1)} s: ${fmt(ABSTRACTS / importS, 0)} citations/s`,
  );

  // The floor: the same number of calls (up to 200,000) at the same total concurrency from one plain client.
  const floorCalls = Math.min(ABSTRACTS * SERVERS, 200_000);
  const floor = await directCalls(instant.url(SERVERS), callBodies(2000, ABSTRACT_BYTES), floorCalls, SERVERS * CONCURRENCY);
  console.log(`floor: ${floorCalls} direct calls at concurrency ${SERVERS * CONCURRENCY}: ${fmt(floor.perSecond, 0)} calls/s`);

  // Dispatch.
  for (let n = 1; n <= WORKERS; n++)
    processes.push({ name: `worker ${n}`, w: await startWorker(bench, { command: 'worker', env: { LOG_LEVEL: 'info' } }), rss: 0 });
  const dbBefore = await tableBytes();
  const total = ABSTRACTS * SERVERS;
  let peak = { keys: 0, bytes: 0 };
  t0 = performance.now();
  for (const id of serverIds) await bench.call('POST', `/api/servers/${id}/start`, undefined, team.body.token);
  let settled = 0;
  while (settled < total) {
    await new Promise((r) => setTimeout(r, 2000));
    const rows = await db.query<{ n: string }>(
      `select coalesce(sum(n), 0) as n from (select count(*) as n from deliveries where server_id = any($1::int[]) and state in ('done', 'failed')) x`,
      [serverIds],
    );
    settled = Number(rows[0].n);
    const now = await redisFigures(redis, prefix);
    if (now.bytes > peak.bytes) peak = now;
    for (const p of processes) p.rss = Math.max(p.rss, rssMiB(p.w.pid));
    const s = (performance.now() - t0) / 1000;
    console.log(
      `  ${fmt(s, 0)} s: ${settled}/${total} settled, ${fmt(settled / s, 0)} pairs/s; Redis ${now.keys} keys, ${MiB(now.bytes)} MiB`,
    );
  }
  const dispatchS = (performance.now() - t0) / 1000;
  const rate = total / dispatchS;
  console.log(
    `dispatch: ${total} pairs in ${fmt(dispatchS, 1)} s: ${fmt(rate, 0)} pairs/s = ${fmt(rate / floor.perSecond, 2)}× the floor (goal ≥ 0.6×)`,
  );
  const calls = instant.requests.slice(0, SERVERS).reduce((a, b) => a + b, 0);
  console.log(`calls to the servers: ${calls} (${fmt(total / calls, 1)} articles per call, the setup checks included)`);
  console.log(`Redis at its peak: ${peak.keys} keys, ${MiB(peak.bytes)} MiB (goal ≤ 64 MiB for 1M × 5, flat in the corpus size)`);

  await db.query('vacuum deliveries, attempts, answers');
  const after = await tableBytes();
  const [content] = await db.query<{ n: string }>('select sum(pg_column_size(result) + pg_column_size(warnings)) as n from answers');
  console.log(
    `database: ${fmt((after - dbBefore - Number(content.n)) / total, 0)} bytes per settled pair beyond the answers' content (goal ≤ 600); ` +
      `whole database ${MiB(await databaseBytes(db))} MiB`,
  );
  console.log(`resident memory, most seen: ${processes.map((p) => `${p.name} ${fmt(p.rss, 0)} MiB`).join(', ')}`);
  console.log(machine());
} finally {
  for (const p of processes) p.w.stop();
  await Promise.all(processes.map((p) => p.w.exited));
  redis.disconnect();
  await bench.stop();
  await instant.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit();

async function tableBytes(): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `select sum(pg_total_relation_size(t::regclass)) as n from unnest(array['deliveries', 'attempts', 'answers']) t`,
  );
  return Number(rows[0].n);
}
