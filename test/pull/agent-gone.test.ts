// An agent that is gone, and an agent whose own server is gone, as real child processes
// against a real meta-server. SIGKILLed while holding leases: its leases (taken with
// keep-alive, a window of 1 s here) come back within seconds, not at the 10-minute
// deadline, and every article is stored once. Its team's server stopped for a while: the
// leases are given back (not failed: one attempt each is all there is), no lease is taken
// until the server answers again, GET /api/servers/:id says the agent's server is down,
// and every article is stored once when it is back on the same port.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { listenOnLoopback, type OnLoopback } from '../support/loopback.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { startAgentProcess, type AgentProcess } from '../support/agent-process.ts';
import { attemptOutcomes, pullScenario, serverStatus } from '../support/pull-scenario.ts';

const PYTHON_AGENT = fileURLToPath(new URL('../../examples/python/pull_agent.py', import.meta.url));
const TASKS = ['ACT', 'INT', 'MENTION'];
const KEEP_ALIVE_SECONDS = 1;
const SWEEP_MS = 200;

/** The team's JSON server: holds every request while `holding` (until released), answers otherwise. */
const local = { holding: false, waiting: new Set<() => void>() };
let localServer: Server;
let loop: OnLoopback;
let localUrl: string;
let ms: TestMetaserver;
let metaUrl: string;
let token: string;
const agents: AgentProcess[] = [];

function teamServer(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.end('a JSON annotation server'); // the agent's probe
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(annotate((JSON.parse(body) as { text: string }).text)));
      };
      if (local.holding) local.waiting.add(answer);
      else answer();
    });
  });
}

beforeAll(async () => {
  localServer = teamServer();
  loop = await listenOnLoopback(localServer);
  localUrl = `http://127.0.0.1:${loop.port}/`;
  ms = await startTestMetaserver({
    config: { publicUrlsOnly: true, leasePollIntervalMs: 50, leaseSweepIntervalMs: SWEEP_MS, leaseKeepAliveSeconds: KEEP_ALIVE_SECONDS },
  });
  await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  metaUrl = `http://127.0.0.1:${(ms.app!.server.address() as { port: number }).port}`;
  token = (await ms.team('Gone')).token;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGKILL');
  for (const release of local.waiting) release();
  await ms?.stop();
  await loop?.close();
});

async function agentFor(serverId: number, concurrency: number): Promise<AgentProcess> {
  const a = await startAgentProcess(
    ['--server', String(serverId), '--forward', localUrl, '--protocol', 'json', '--concurrency', String(concurrency), '--wait', '1'],
    { METASERVER_URL: metaUrl, METASERVER_TOKEN: token },
  );
  agents.push(a);
  return a;
}

const scenario = (slug: string, n: number, settings: Record<string, unknown>, concurrency: number) =>
  pullScenario(ms, token, TASKS, { slug, n, settings: { ...settings }, concurrency });
const status = (id: number) => serverStatus(ms, token, id);
const outcomes = (articleId: string, serverId: number) => attemptOutcomes(ms, articleId, serverId);

describe('an agent that is gone', () => {
  it('SIGKILLed while holding leases: they come back within seconds (not at the deadline), each article stored once', async () => {
    // The deadline is the default's 10 minutes: only keep-alive can free the leases in time.
    const { serverId, ids } = await scenario('kill', 4, { timeoutSeconds: 600, maxAttempts: 3 }, 3);
    local.holding = true;
    const doomed = await agentFor(serverId, 3);
    await waitFor('three leases held', async () => ((await status(serverId)).agent.leasesHeld === 3 ? true : undefined));
    // Held past three windows: the renewals keep them (a lease not renewed would have been given back, and its article not answered).
    const heldSince = Date.now();
    await waitFor('three windows passed', async () => (Date.now() - heldSince > 3 * KEEP_ALIVE_SECONDS * 1000 ? true : undefined));
    expect((await status(serverId)).agent.leasesHeld).toBe(3);
    expect(local.waiting.size).toBe(3);
    doomed.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();
    local.holding = false;
    for (const release of local.waiting) release(); // the dead agent's requests end unanswered
    local.waiting.clear();
    await waitFor('the leases given back', async () => ((await status(serverId)).agent.leasesHeld === 0 ? true : undefined), 5_000);
    // The window (1 s), a sweep and the status's cache (1 s); the deadline is 600 s.
    const backAfter = Date.now() - killedAt;
    expect(backAfter).toBeLessThan(KEEP_ALIVE_SECONDS * 1000 + SWEEP_MS + 2_500);
    await agentFor(serverId, 2);
    await waitFor('every article stored', async () => ((await status(serverId)).progress.done === 4 ? true : undefined), 10_000);
    for (const id of ids) {
      const o = await outcomes(id, serverId);
      expect(o.filter((x) => x === 'ok')).toHaveLength(1);
      expect(o.filter((x) => x !== 'ok' && x !== 'released')).toEqual([]);
    }
    expect((await status(serverId)).agent.leasesHeld).toBe(0);
  }, 30_000);

  it("its server down for a while: leases given back, not failed; the status says the agent's server is down; all stored once", async () => {
    // One attempt per article: a single failure would be final.
    const { serverId, ids } = await scenario('down', 6, { timeoutSeconds: 60, maxAttempts: 1 }, 1);
    await loop.close(); // connection refused from here on
    const agent = await agentFor(serverId, 2);
    // Registered with concurrency 1: the agent says so rather than "up to 2".
    expect(agent.lines.join('\n')).toMatch(/warning: --concurrency 2 exceeds the server's registered concurrency 1/);
    expect(agent.lines.join('\n')).toMatch(/up to 1 lease\(s\) at once/);
    const down = await waitFor("the agent's server reported down", async () => {
      const s = await status(serverId);
      return s.agent.localServer === 'down' ? s.agent : undefined;
    });
    expect(down.connected).toBe(true);
    expect(down.localServerDetail).toMatch(/connection/);
    expect(agent.lines.join('\n')).toMatch(/local annotation server does not answer .*leases paused until it does/);
    const page = await ms.app!.inject({
      method: 'GET',
      url: `/fragments/servers/${serverId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(page.body).toMatch(/data-agent="local-down">Agent: connected, but <strong class="error">the agent's server is down<\/strong>/);
    loop = await listenOnLoopback(teamServer(), Number(new URL(localUrl).port));
    await waitFor('every article stored', async () => ((await status(serverId)).progress.done === 6 ? true : undefined), 15_000);
    expect(agent.lines.join('\n')).toMatch(/answers again; taking leases/);
    for (const id of ids) {
      const o = await outcomes(id, serverId);
      expect(o.filter((x) => x === 'ok')).toHaveLength(1);
      expect(o.filter((x) => x !== 'ok' && x !== 'released')).toEqual([]);
    }
    // Given back, not failed: counted apart from the failures, on the page and in the figures.
    const released = (await Promise.all(ids.map((id) => outcomes(id, serverId)))).flat().filter((x) => x === 'released').length;
    expect(released).toBeGreaterThan(0);
    // The status is kept up to a second, and its parts are read in parallel: wait for the last answer in each.
    const after = await waitFor('the status counts every answer and release', async () => {
      const s = await status(serverId);
      return s.reliability?.successes === 6 && s.givenBack?.count === released ? s : undefined;
    });
    expect(after.failuresByKind).toEqual({});
    expect(after.errors).toEqual([]);
    expect(after.reliability).toMatchObject({ attempts: 6, successes: 6, failures: 0, failingNow: false });
    const shown = (
      await ms.app!.inject({ method: 'GET', url: `/fragments/servers/${serverId}`, headers: { authorization: `Bearer ${token}` } })
    ).body;
    expect(shown).toContain(`<p data-given-back="${released}">Given back by the agent: ${released} (last`);
    expect(shown).toMatch(/data-no-errors>No failed attempts\./);
    expect(shown).not.toMatch(/data-failure-kind|data-error-kind/);
    await waitFor('the status says up again', async () => ((await status(serverId)).agent.localServer === 'up' ? true : undefined), 5_000);
  }, 30_000);

  it('the Python agent keeps its leases alive too: SIGKILLed, they come back within seconds', async () => {
    const { serverId } = await scenario('pykill', 2, { timeoutSeconds: 600, maxAttempts: 3 }, 2);
    local.holding = true;
    const args = [
      PYTHON_AGENT,
      '--server',
      String(serverId),
      '--forward',
      localUrl,
      '--protocol',
      'json',
      '--concurrency',
      '2',
      '--wait',
      '1',
    ];
    const child = spawn('python3', args, { stdio: 'ignore', env: { ...process.env, METASERVER_URL: metaUrl, METASERVER_TOKEN: token } });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor('two leases held', async () => ((await status(serverId)).agent.leasesHeld === 2 ? true : undefined), 15_000);
      // Held past three windows: the renewals keep them (a lease not renewed would have been given back).
      const heldSince = Date.now();
      await waitFor('three windows passed', async () => (Date.now() - heldSince > 3 * KEEP_ALIVE_SECONDS * 1000 ? true : undefined));
      expect((await status(serverId)).agent.leasesHeld).toBe(2);
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      await waitFor('the leases given back', async () => ((await status(serverId)).agent.leasesHeld === 0 ? true : undefined), 5_000);
      expect(Date.now() - killedAt).toBeLessThan(KEEP_ALIVE_SECONDS * 1000 + SWEEP_MS + 2_500);
    } finally {
      child.kill('SIGKILL');
      local.holding = false;
      for (const release of local.waiting) release();
      local.waiting.clear();
    }
  }, 30_000);
});
