// The agent under faults, as real child processes against a real meta-server: SIGKILLed
// while holding leases (they time out, the articles are offered again and stored once), two
// agents of one server (they share its leases, never more than its limit), SIGTERM (the
// leases are given back, not failed), a failing local server (reported as a fault).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { startAgentProcess, type AgentProcess } from '../support/agent-process.ts';
import { attemptOutcomes, pullScenario, serverStatus } from '../support/pull-scenario.ts';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startPythonServer } from '../support/python-server.ts';

const PYTHON_AGENT = fileURLToPath(new URL('../../examples/python/pull_agent.py', import.meta.url));

const TASKS = ['ACT', 'INT', 'MENTION'];

/** The team's JSON server: answers after `delayMs`, counts requests in flight by scenario (the text's first word); `failing` answers a JSON fault. */
const local = { delayMs: 0, failing: false, inFlight: new Map<string, number>(), maxInFlight: new Map<string, number>() };
let localServer: Server;
let localUrl: string;
let closeLocal: () => Promise<void>;
let ms: TestMetaserver;
let metaUrl: string;
let token: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  localServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { text } = JSON.parse(body) as { text: string };
      const scenario = text.split(' ')[0];
      local.inFlight.set(scenario, (local.inFlight.get(scenario) ?? 0) + 1);
      local.maxInFlight.set(scenario, Math.max(local.maxInFlight.get(scenario) ?? 0, local.inFlight.get(scenario)!));
      setTimeout(() => {
        local.inFlight.set(scenario, local.inFlight.get(scenario)! - 1);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(local.failing ? { error: { code: 7, message: 'model not loaded' } } : annotate(text)));
      }, local.delayMs);
    });
  });
  const loop = await listenOnLoopback(localServer);
  localUrl = `http://127.0.0.1:${loop.port}/`;
  closeLocal = loop.close;
  ms = await startTestMetaserver({ config: { publicUrlsOnly: true, leasePollIntervalMs: 50, leaseSweepIntervalMs: 200 } });
  await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  metaUrl = `http://127.0.0.1:${(ms.app!.server.address() as { port: number }).port}`;
  token = (await ms.team('Faulty')).token;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGKILL');
  await ms?.stop();
  await closeLocal?.();
});

async function agentFor(serverId: number, concurrency: number): Promise<AgentProcess> {
  const a = await startAgentProcess([
    '--url',
    metaUrl,
    '--token',
    token,
    '--server',
    String(serverId),
    '--forward',
    localUrl,
    '--protocol',
    'json',
    '--concurrency',
    String(concurrency),
    '--wait',
    '1',
  ]);
  agents.push(a);
  return a;
}

const scenario = (slug: string, n: number, settings: Record<string, unknown>, concurrency: number) =>
  pullScenario(ms, token, TASKS, { slug, n, settings: { maxAttempts: 5, ...settings }, concurrency });
const status = (id: number) => serverStatus(ms, token, id);
const outcomes = (articleId: string, serverId: number) => attemptOutcomes(ms, articleId, serverId);

describe('agent faults', () => {
  it('SIGKILL while holding leases: they time out, the articles are offered again and stored once', async () => {
    const { serverId, ids } = await scenario('kill', 5, { timeoutSeconds: 3 }, 3);
    local.delayMs = 60_000;
    const doomed = await agentFor(serverId, 3);
    const held = await waitFor('three leases held', async () => {
      const s = await status(serverId);
      return s.agent.leasesHeld === 3 ? s.agent : undefined;
    });
    expect(held.connected).toBe(true);
    doomed.kill('SIGKILL');
    await doomed.exited;
    local.delayMs = 0;
    await agentFor(serverId, 2);
    await waitFor('every article stored', async () => ((await status(serverId)).progress.done === 5 ? true : undefined), 30_000);
    let timeouts = 0;
    for (const id of ids) {
      const o = await outcomes(id, serverId);
      expect(o.filter((x) => x === 'ok')).toHaveLength(1);
      timeouts += o.filter((x) => x === 'timeout').length;
    }
    expect(timeouts).toBe(3);
    expect((await status(serverId)).timing.answered).toBe(5);
  }, 60_000);

  it('two agents of one server share its leases and never exceed its limit', async () => {
    const { serverId } = await scenario('two', 12, { timeoutSeconds: 60 }, 2);
    local.delayMs = 150;
    const [a, b] = await Promise.all([agentFor(serverId, 3), agentFor(serverId, 3)]);
    // The status page reads its parts in parallel, each on its own connection with PostgreSQL: wait for the timing's read too.
    const done = async () => {
      const s = await status(serverId);
      return s.progress.done === 12 && s.timing.answered >= 12 ? s : undefined;
    };
    const settled = await waitFor('every article stored', done, 40_000);
    expect(local.maxInFlight.get('two')).toBe(2);
    expect(settled.timing.answered).toBe(12);
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const leased = (p: AgentProcess) => Number(/stopped: (\d+) leased/.exec(p.lines.join('\n'))?.[1] ?? -1);
    expect(leased(a) + leased(b)).toBe(12);
  }, 60_000);

  it('SIGTERM gives the leases back (not failed attempts); a failing local server is reported as a fault', async () => {
    const { serverId, ids } = await scenario('term', 2, { timeoutSeconds: 60 }, 2);
    local.delayMs = 60_000;
    const a = await agentFor(serverId, 2);
    await waitFor('two leases held', async () => ((await status(serverId)).agent.leasesHeld === 2 ? true : undefined));
    a.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(a.lines.join('\n')).toMatch(/2 given back/);
    // The status response is kept up to a second (statusCacheMs); the leases were given back at once.
    await waitFor('no lease held', async () => ((await status(serverId)).agent.leasesHeld === 0 ? true : undefined), 5_000);
    for (const id of ids) expect(await outcomes(id, serverId)).toEqual(['released']);
    // Listed apart from the failures, and not counted against the server.
    const given = await waitFor('both counted as given back', async () => {
      const s = await status(serverId);
      return s.givenBack?.count === 2 ? s : undefined;
    });
    expect(given.givenBack.lastAt).toEqual(expect.any(String));
    expect(given.failuresByKind).toEqual({});
    expect(given.errors).toEqual([]);
    expect(given.reliability).toMatchObject({ failures: 0, failingNow: false });
    local.delayMs = 0;
    local.failing = true;
    const b = await agentFor(serverId, 1);
    await waitFor('a fault recorded', async () => ((await outcomes(ids[0], serverId)).includes('fault') ? true : undefined), 20_000);
    local.failing = false;
    await waitFor('both stored', async () => ((await status(serverId)).progress.done === 2 ? true : undefined), 20_000);
    const all = [...(await outcomes(ids[0], serverId)), ...(await outcomes(ids[1], serverId))];
    expect(all.filter((x) => x === 'ok')).toHaveLength(2);
    b.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  }, 60_000);

  it('the Python agent (standard library only) answers through the Python sample server, and gives back on SIGTERM', async () => {
    const python = await startPythonServer();
    try {
      await ms.challenge('py', { tasks: TASKS });
      const server = await ms.server('py', token, { name: 'py', protocol: 'pull', tasks: TASKS, concurrency: 2 });
      const articles = Array.from({ length: 30 }, (_, i) => ({
        id: `py${i}`,
        text: `py ${i}: 😀 BRCA1 (P38398) binds TP53 (P04637) ${'IL2R '.repeat(i % 3)}`,
      }));
      await ms.articles('py', articles);
      const child = spawn(
        'python3',
        [
          PYTHON_AGENT,
          '--url',
          metaUrl,
          '--token',
          token,
          '--server',
          String(server.id),
          '--forward',
          python.url,
          '--concurrency',
          '2',
          '--wait',
          '1',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      const lines: string[] = [];
      createInterface({ input: child.stderr }).on('line', (l) => lines.push(l));
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        await waitFor(
          'the setup check passed through the Python agent',
          async () => ((await status(server.id)).check?.ok ? true : undefined),
          20_000,
        );
        await ms.startServer(server.id, token);
        await waitFor('30 answers', async () => ((await status(server.id)).progress.done === 30 ? true : undefined), 40_000);
        expect((await status(server.id)).timing.answered).toBe(30);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(lines.join('\n')).toMatch(/stopped: 31 leased, 31 answered/);
      } finally {
        child.kill('SIGKILL');
      }
    } finally {
      python.stop();
    }
  }, 60_000);
});
