// One team's flood of long-polls does not slow another team's work: at most
// max(2 × concurrency, 4) polls of a server and leasePollsPerTeam of a team wait at once;
// the rest get 429 too_many_polls with Retry-After, in the API's error shape, naming the
// bound. Team B's agent (in this process, over real HTTP) answers its articles during team
// A's flood at about the rate it had alone, measured in the same test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { annotate } from '../../src/sample/annotator.ts';
import { PullAgent } from '../../src/agent/agent.ts';
import { MetaLink } from '../../src/agent/meta-link.ts';
import type { LocalServer } from '../../src/agent/local-server.ts';
import { serverSettled, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const PER_TEAM = 6;
const TASKS = ['ACT', 'INT'];

let ms: TestMetaserver;
let base: string;

beforeAll(async () => {
  // The default poll interval: the flood's waiting polls look at the queue as often as in production.
  ms = await startTestMetaserver({ config: { leasePollsPerTeam: PER_TEAM, leasePollIntervalMs: 250, leaseRequestsPerMinute: 100_000 } });
  await ms.app!.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ms.app!.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await ms?.stop();
});

/** The sample annotator as the team's server, answering at once. */
const sampleServer: LocalServer = {
  annotate: async (article) => ({ ok: true, answer: annotate(article.text) }),
  probe: async () => null,
  close: async () => {},
};

/**
 * How long team A's polls would wait: longer than the test, however slow the machine, so they
 * all still wait when the bounds are checked; the test then leaves them (its agent gone).
 */
const FLOOD_WAIT_SECONDS = 60;

const poll = (serverId: number, token: string, wait: number, dispatcher?: Agent) =>
  fetch(`${base}/api/servers/${serverId}/leases?wait=${wait}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    ...(dispatcher ? { dispatcher } : {}),
  } as RequestInit);

/** A pull server whose setup check passed (its agent answered the sample article) and which is started. */
async function pullServer(slug: string, token: string, concurrency: number): Promise<number> {
  const server = await ms.server(slug, token, {
    name: `${slug}-${concurrency}-${Math.random()}`,
    protocol: 'pull',
    tasks: TASKS,
    concurrency,
  });
  const setup = await poll(server.id, token, 5);
  expect(setup.status).toBe(200);
  const offer = (await setup.json()) as { lease: string; article: { text: string } };
  const answered = await ms.request('POST', `/api/leases/${offer.lease}/answer`, annotate(offer.article.text), token);
  expect(answered.status).toBe(200);
  await ms.startServer(server.id, token);
  return server.id;
}

/** Seconds team B's agent takes to answer n new articles of its server. */
async function agentRun(slug: string, serverId: number, token: string, n: number, round: number): Promise<number> {
  const articles = Array.from({ length: n }, (_, i) => ({
    id: `r${round}-${i}`,
    text: `Round ${round}, article ${i}: BRCA1 (P38398) binds TP53 (P04637).`,
  }));
  const link = new MetaLink({ url: base, token, serverId }, 2);
  const agent = new PullAgent({ link, local: sampleServer, concurrency: 2, waitSeconds: 2, log: () => {} });
  agent.start();
  const t0 = performance.now();
  await ms.articles(slug, articles);
  await serverSettled(ms, serverId, n * round, 20_000);
  const seconds = (performance.now() - t0) / 1000;
  await agent.stop();
  await link.close();
  return seconds;
}

describe('long-polls waiting at once', () => {
  it("are bounded per server and per team (429 too_many_polls beyond), and a flood does not slow another team's agent", async () => {
    // Each team its own challenge: articles loaded go to every active server of a challenge, and team A's get none.
    await ms.challenge('fair-a', { tasks: TASKS, timeoutSeconds: 10 });
    await ms.challenge('fair', { tasks: TASKS, timeoutSeconds: 10 });
    const a = (await ms.team('Flooders')).token;
    const b = (await ms.team('Steady')).token;
    const [a1, a2] = [await pullServer('fair-a', a, 1), await pullServer('fair-a', a, 2)];
    const bServer = await pullServer('fair', b, 2);

    const alone = await agentRun('fair', bServer, b, 20, 1);

    // Team A: 60 polls at once on a server of concurrency 1 — 4 wait, the others are refused at once.
    // Team A's own connections: closing them is its agent leaving.
    const flooder = new Agent({ connections: 100 });
    const flood = Array.from({ length: 60 }, () => poll(a1, a, FLOOD_WAIT_SECONDS, flooder));
    const refused = await waitFor('the polls beyond the server bound refused', async () => {
      const settled = await Promise.all(flood.map((p) => Promise.race([p, Promise.resolve(undefined)])));
      const answered = settled.filter((r) => r !== undefined);
      return answered.length >= 56 ? answered : undefined;
    });
    expect(refused).toHaveLength(56);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const body = (await refused[0].json()) as {
      error: { code: string; message: string; details: { bound: string; limit: number } };
    };
    expect(body.error).toMatchObject({ code: 'too_many_polls', details: { bound: 'server', limit: 4 } });
    expect(body.error.message).toMatch(/server \d+ has 4 lease requests waiting/);

    // Its second server (bound 4) takes the team's last 2 places (PER_TEAM 6); the next is refused for the team.
    const more = Array.from({ length: 2 }, () => poll(a2, a, FLOOD_WAIT_SECONDS, flooder));
    // (A poll that does not wait answers 204 at once while there is room; once those 2 wait, it is refused.)
    const teamRefused = await waitFor('a poll refused for the team bound', async () => {
      const r = await poll(a2, a, 0);
      if (r.status === 429) return r;
      await r.body?.cancel();
      return undefined;
    });
    const teamBody = (await teamRefused.json()) as { error: { code: string; details: { bound: string; limit: number } } };
    expect(teamBody.error).toMatchObject({ code: 'too_many_polls', details: { bound: 'team', limit: PER_TEAM } });

    const ended = [...flood, ...more].map((p) => {
      const state = { ended: false };
      void p.then(
        () => (state.ended = true),
        () => (state.ended = true),
      );
      return state;
    });
    // Team B is not refused by team A's bounds, and its agent's work goes at about the rate it had alone.
    const during = await agentRun('fair', bServer, b, 20, 2);
    expect(during).toBeLessThan(Math.max(3 * alone, alone + 2));

    // The 6 polls let in still wait; once their agent leaves, their places are free again.
    expect(ended.filter((e) => !e.ended)).toHaveLength(6);
    await flooder.destroy();
    const freed = await waitFor('the places of the polls left freed', async () => {
      const r = await poll(a1, a, 0);
      await r.body?.cancel();
      return r.status === 429 ? undefined : r.status;
    });
    expect(freed).toBe(204);
  }, 60_000);
});
