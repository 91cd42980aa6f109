// The pull protocol's cost: the same articles answered by the same instant JSON server,
// once registered as a `json` server (the meta-server calls it) and once as a `pull` server
// whose agent (src/agent, in this process, over real loopback HTTP to the API) takes the
// articles on lease and forwards them to it. Prints leases per second, the rate against
// the JSON registration's (a ratio, same run, same machine) and the latency added per
// article: the attempt's recorded time (lease → answer stored, vs the JSON call) at the median,
// and this process's CPU time per article in each run (steadier than the rates on a busy machine).
//   node --import tsx bench/pull.ts [articles=400] [concurrency=4] [articleBytes=20000]
// BENCH_AGENT=process runs the agent as teams do, `metaserver agent` in a process of its own
// (this process's CPU then leaves the agent's share out).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PullAgent } from '../src/agent/agent.ts';
import { forwardTo } from '../src/agent/local-server.ts';
import { MetaLink } from '../src/agent/meta-link.ts';
import {
  fmt,
  machine,
  pct,
  printSqlStats,
  setupChallenge,
  startAll,
  startBench,
  startProfile,
  stopProfile,
  waitDeliveries,
  type Bench,
} from './support/harness.ts';
import { startInstantServer } from './support/instant-server.ts';

const ARTICLES = Number(process.argv[2] ?? 400);
const CONCURRENCY = Number(process.argv[3] ?? 4);
const ARTICLE_BYTES = Number(process.argv[4] ?? 20_000);
const AGENT_PROCESS = process.env.BENCH_AGENT === 'process';

/** `metaserver agent` as a team starts it, forwarding to the instant server. */
function agentProcess(serverId: number, token: string, forward: string): ChildProcess {
  const bin = fileURLToPath(new URL('../bin/metaserver.js', import.meta.url));
  const args = ['agent', '--url', apiUrl, '--server', String(serverId), '--forward', forward, '--protocol', 'json'];
  args.push('--concurrency', String(CONCURRENCY), '--wait', '5');
  return spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, METASERVER_TOKEN: token },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const instant = await startInstantServer({ protocol: 'json' });
const bench = await startBench({ config: { leaseRequestsPerMinute: 10_000_000 } });
await bench.runtime.app!.listen({ port: 0, host: '127.0.0.1' });
const apiUrl = `http://127.0.0.1:${(bench.runtime.app!.server.address() as { port: number }).port}`;
console.log(machine());
console.log(
  `database: ${bench.database.kind}; ${ARTICLES} articles of ${ARTICLE_BYTES} bytes, concurrency ${CONCURRENCY}; the same instant JSON server behind both`,
);

async function attemptMs(bench: Bench, serverId: number): Promise<number[]> {
  const rows = await bench.database.db.query<{ ms: number }>(`select ms from attempts where server_id = $1 and outcome = 'ok'`, [serverId]);
  return rows.map((r) => Number(r.ms));
}

async function run(
  protocol: 'json' | 'pull',
): Promise<{ perSecond: number; ms: number[]; answers: number; attempts: number; cpuMs: number }> {
  const setup = await setupChallenge(bench, {
    servers: 1,
    articles: ARTICLES,
    concurrency: CONCURRENCY,
    urls: (k) => instant.url(k),
    protocol,
    articleBytes: ARTICLE_BYTES,
  });
  const serverId = setup.serverIds[0];
  let agent: PullAgent | undefined;
  let link: MetaLink | undefined;
  let child: ChildProcess | undefined;
  const local = forwardTo(instant.url(0), 'json', { method: '', connections: CONCURRENCY, maxAnswerBytes: 20 * 1024 * 1024 });
  if (protocol === 'pull' && AGENT_PROCESS) child = agentProcess(serverId, setup.teamTokens[0], instant.url(0));
  else if (protocol === 'pull') {
    link = new MetaLink({ url: apiUrl, token: setup.teamTokens[0], serverId }, CONCURRENCY);
    agent = new PullAgent({ link, local, concurrency: CONCURRENCY, waitSeconds: 5, log: () => {} });
    agent.start();
  }
  if (protocol === 'pull') {
    // The agent answers the setup article first; the articles follow once the server starts.
    for (;;) {
      const s = await bench.call<{ check: { ok: boolean } | null }>('GET', `/api/servers/${serverId}`, undefined, setup.teamTokens[0]);
      if (s.body.check?.ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  // BENCH_CPU_PROF / BENCH_SQL_STATS look at the pull run only (the JSON run is the reference).
  if (protocol === 'pull') await startProfile();
  const t0 = performance.now();
  // This process's CPU time (every part runs here: API, database, queue, agent, the instant server):
  // unlike the rates, it does not move with what else the machine is doing.
  const cpu0 = process.cpuUsage();
  await startAll(bench, setup);
  await waitDeliveries(bench.database.db, [serverId], ARTICLES, 600_000, 50);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (protocol === 'pull') await stopProfile();
  await agent?.stop();
  await link?.close();
  if (child) {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
  await local.close();
  const counts = (
    await bench.database.db.query<{ answers: string; attempts: string }>(
      `select (select count(*) from answers where server_id = $1) as answers, (select count(*) from attempts where server_id = $1) as attempts`,
      [serverId],
    )
  )[0];
  return {
    perSecond: ARTICLES / seconds,
    ms: await attemptMs(bench, serverId),
    answers: Number(counts.answers),
    attempts: Number(counts.attempts),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

const json = await run('json');
if (process.env.BENCH_SQL_STATS === '1') {
  console.log('(json run)');
  printSqlStats();
}
const pull = await run('pull');
if (process.env.BENCH_SQL_STATS === '1') {
  console.log('(json and pull runs together)');
  printSqlStats();
}
console.log(
  `json  (the meta-server calls the server): ${fmt(json.perSecond, 0)} answers/s; attempt p50 ${fmt(pct(json.ms, 50))} ms p99 ${fmt(pct(json.ms, 99))} ms; answers ${json.answers}, attempts ${json.attempts}`,
);
console.log(
  `pull  (an agent takes leases):            ${fmt(pull.perSecond, 0)} leases/s;  attempt p50 ${fmt(pct(pull.ms, 50))} ms p99 ${fmt(pct(pull.ms, 99))} ms; answers ${pull.answers}, attempts ${pull.attempts}`,
);
console.log(
  `CPU of this process per article: json ${fmt(json.cpuMs / ARTICLES)} ms, pull ${fmt(pull.cpuMs / ARTICLES)} ms ${AGENT_PROCESS ? "(the agent's in its own process)" : "(the agent's share included)"}`,
);
console.log(
  `ratio pull / json: ${fmt(pull.perSecond / json.perSecond)}×; added per article (attempt p50): ${fmt(pct(pull.ms, 50) - pct(json.ms, 50))} ms`,
);
if (json.answers !== ARTICLES || pull.answers !== ARTICLES || pull.attempts !== ARTICLES) {
  console.log('CHECK FAILED: an article was not answered, or answered or tried more than once');
  process.exitCode = 1;
}
await bench.stop();
await instant.close();
