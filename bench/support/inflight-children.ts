// The child processes of bench/inflight.ts, so that the bench process's memory is the
// meta-server's alone:
//   server — the instant server answering after DELAY_MS (short requests, i.e. setup
//     checks, at once); tells its parent its base URL and answers {stats} messages.
//   floor URL CALLS ARTICLES DELAY_MS — the floor: the same number of direct XML-RPC calls
//     held open by that server, nothing else (no queue, no database). SHARED=1 (default):
//     one body Buffer per article, shared; SHARED=0: a body of its own per request.
import { callXmlRpc, createServerAgent } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { callBodies } from './floors.ts';
import { startInstantServer } from './instant-server.ts';

async function server(): Promise<void> {
  const server = await startInstantServer({ delayMs: Number(process.env.DELAY_MS ?? 20_000), fastBelowBytes: 10_000 });
  process.send!({ url: server.url(0).replace(/0$/, '') });
  process.on('message', (msg: { stats?: boolean; close?: boolean }) => {
    if (msg.stats) {
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      process.send!({ requests: sum(server.requests), inFlight: sum(server.inFlight), maxInFlight: server.maxInFlight });
    }
    if (msg.close) void server.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}

async function floor(): Promise<void> {
  const [url, calls, articles, delayMs] = [process.argv[3], Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6])];
  const shared = process.env.SHARED !== '0';
  const bodies = callBodies(articles);
  const servers = Math.ceil(calls / articles);
  const agents = Array.from({ length: servers }, () => createServerAgent({ connections: articles }));
  global.gc?.();
  const before = process.memoryUsage();
  const started = Date.now();
  const all: Promise<unknown>[] = [];
  for (let s = 0; s < servers; s++) {
    for (let a = 0; a < articles && all.length < calls; a++) {
      const body = shared ? bodies[a] : Buffer.from(bodies[a].toString('latin1') + ' '.repeat(s % 7), 'latin1');
      all.push(callXmlRpc({ url: `${url}${s}`, body, deadlineMs: delayMs * 4, maxResponseBytes: 1 << 24 }, agents[s]));
    }
  }
  await new Promise((r) => setTimeout(r, Math.max(1000, delayMs * 0.75 - (Date.now() - started))));
  const held = process.memoryUsage();
  const outcomes = (await Promise.all(all)) as Array<{ ok: boolean; kind?: string; detail?: string }>;
  const failures: Record<string, number> = {};
  for (const o of outcomes) if (!o.ok) failures[`${o.kind}: ${o.detail}`] = (failures[`${o.kind}: ${o.detail}`] ?? 0) + 1;
  process.stdout.write(
    `${JSON.stringify({ rssBefore: before.rss, rssHeld: held.rss, heapHeld: held.heapUsed, ok: outcomes.filter((o) => o.ok).length, failures })}\n`,
  );
  await Promise.all(agents.map((a) => a.close()));
  process.exit(0);
}

if (process.argv[2] === 'server') await server();
else await floor();
