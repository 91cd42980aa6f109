// A team behind a firewall, end to end: with publicUrlsOnly on (the meta-server may not
// connect to loopback at all), a pull server's agent — `metaserver agent --forward`, a real
// child process — hands 200 articles to the Python sample server; each is stored exactly
// once, with the same answer the same sample server gives when registered as xmlrpc. The
// meta-server is then restarted while the agent long-polls: it reconnects, and the articles
// loaded after the restart are answered too, none twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { ADMIN_TOKEN, openTestDatabase, startTestMetaserver, waitFor, type TestDatabase, type TestMetaserver } from '../support/runtime.ts';
import { startAgentProcess, type AgentProcess } from '../support/agent-process.ts';

const TASKS = ['ACT', 'INT', 'MENTION'];
const ACCESSIONS = ['P38398', 'P04637', 'P01589', 'P37840', 'Q9Y6K9'];
const text = (i: number) =>
  `Article ${i}: BRCA1 (${ACCESSIONS[i % 5]}) binds ${'TP53 '.repeat(i % 3)}(${ACCESSIONS[(i + 2) % 5]}); 😀 IL2R ${i}.`;

let database: TestDatabase;
let ms: TestMetaserver;
let python: PythonServer;
let agent: AgentProcess | undefined;
let port: number;
let token: string;
let pullId: number;
let ids: Record<string, string> = {};

async function listen(server: TestMetaserver, at = 0): Promise<number> {
  await server.app!.listen({ port: at, host: '127.0.0.1' });
  return (server.app!.server.address() as { port: number }).port;
}

beforeAll(async () => {
  database = await openTestDatabase();
  [ms, python] = await Promise.all([
    startTestMetaserver({ database, config: { publicUrlsOnly: true, leasePollIntervalMs: 50, leaseSweepIntervalMs: 200 } }),
    startPythonServer(),
  ]);
  port = await listen(ms);
});
afterAll(async () => {
  agent?.kill('SIGKILL');
  await ms?.stop();
  python?.stop();
  await database?.drop();
});

async function storedOnce(serverId: number, articleIds: string[]) {
  for (const id of articleIds) {
    const res = await ms.request('GET', `/api/articles/${id}/responses/${serverId}`, undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.attempts.filter((a: { outcome: string }) => a.outcome === 'ok')).toHaveLength(1);
  }
}

describe('metaserver agent --forward next to the Python sample server', () => {
  it('answers 200 articles exactly once each, with publicUrlsOnly on', async () => {
    await ms.challenge('fw', { name: 'Firewalled', tasks: TASKS });
    token = (await ms.team('Behind NAT')).token;
    // The sample server on loopback cannot be registered as a reachable server here…
    const refused = await ms.request('POST', '/api/challenges/fw/servers', { name: 'direct', url: python.url, tasks: TASKS }, token);
    expect(refused.status).toBe(400);
    // …so the team registers a pull server and runs the agent beside its server.
    const server = await ms.server('fw', token, { name: 'pulled', protocol: 'pull', tasks: TASKS, concurrency: 4 });
    pullId = server.id;
    const articles = Array.from({ length: 200 }, (_, i) => ({ id: `N${i}`, text: text(i) }));
    ids = (await ms.articles('fw', articles)).ids;
    agent = await startAgentProcess([
      '--url',
      `http://127.0.0.1:${port}`,
      '--token',
      token,
      '--server',
      String(pullId),
      '--forward',
      python.url,
      '--concurrency',
      '4',
      '--wait',
      '1',
    ]);
    await waitFor('the setup check passed through the agent', async () => {
      const check = (await ms.request('GET', `/api/servers/${pullId}`, undefined, token)).body.check;
      return check?.ok ? check : undefined;
    });
    await ms.startServer(pullId, token);
    await waitFor(
      '200 answers',
      async () => {
        const status = (await ms.request('GET', `/api/servers/${pullId}`, undefined, token)).body;
        return status.progress.done === 200 ? true : undefined;
      },
      60_000,
    );
    // Exactly once: 200 deliveries done, and 200 attempts answered in all (no article twice).
    const status = (await ms.request('GET', `/api/servers/${pullId}`, undefined, token)).body;
    expect(status.progress).toMatchObject({ done: 200, failed: 0, queued: 0, active: 0 });
    expect(status.timing.answered).toBe(200);
    await storedOnce(pullId, Object.values(ids).slice(0, 10));
  }, 90_000);

  it('survives a meta-server restart while the agent long-polls; stores what the xmlrpc registration of the same sample stores', async () => {
    await ms.stop();
    // The same database and Redis keys, the same port; loopback servers allowed this time.
    ms = await startTestMetaserver({
      database,
      config: { queuePrefix: ms.config.queuePrefix, leasePollIntervalMs: 50, leaseSweepIntervalMs: 200 },
    });
    await listen(ms, port);
    const more = Array.from({ length: 20 }, (_, i) => ({ id: `M${i}`, text: text(1000 + i) }));
    const added = (await ms.articles('fw', more)).ids;
    const all = { ...ids, ...added };
    await waitFor(
      'the articles loaded after the restart answered',
      async () => {
        const status = (await ms.request('GET', `/api/servers/${pullId}`, undefined, token)).body;
        return status.progress.done === 220 ? true : undefined;
      },
      40_000,
    );
    await storedOnce(pullId, Object.values(added));
    expect(agent!.lines.some((l) => /trying again in/.test(l))).toBe(true);

    const direct = await ms.server('fw', token, { name: 'direct', url: python.url, tasks: TASKS, concurrency: 4 });
    expect(direct.check.ok).toBe(true);
    await ms.startServer(direct.id, token);
    await waitFor(
      'the xmlrpc registration answered too',
      async () => {
        const status = (await ms.request('GET', `/api/servers/${direct.id}`, undefined, token)).body;
        return status.progress.done === 220 ? true : undefined;
      },
      60_000,
    );
    for (const id of Object.values(all)) {
      const article = (await ms.request('GET', `/api/articles/${id}`, undefined, ADMIN_TOKEN)).body;
      const byServer = new Map(article.servers.map((s: { serverId: number; result: unknown }) => [s.serverId, s.result]));
      expect(byServer.get(pullId)).toBeTruthy();
      expect(byServer.get(pullId)).toEqual(byServer.get(direct.id));
    }
    agent!.kill('SIGTERM');
    expect(await agent!.exited).toBe(0);
    agent = undefined;
  }, 120_000);
});
