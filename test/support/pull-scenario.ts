// What the pull agent's process tests start from: a challenge of `n` articles and a started
// pull server whose setup check has passed (its sample article answered here, not by an
// agent), and the two reads they check by — the server's status and an article's attempts.
import { expect } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { ADMIN_TOKEN, type TestMetaserver } from './runtime.ts';

export interface PullScenario {
  serverId: number;
  ids: string[];
}

export async function pullScenario(
  ms: TestMetaserver,
  token: string,
  tasks: string[],
  at: { slug: string; n: number; settings: Record<string, unknown>; concurrency: number },
): Promise<PullScenario> {
  const { slug, n, settings, concurrency } = at;
  await ms.challenge(slug, { tasks, retryDelaySeconds: 0, ...settings });
  const server = await ms.server(slug, token, { name: slug, protocol: 'pull', tasks, concurrency });
  const setup = (await ms.request('POST', `/api/servers/${server.id}/leases?wait=1`, undefined, token)).body;
  expect((await ms.request('POST', `/api/leases/${setup.lease}/answer`, annotate(setup.article.text), token)).status).toBe(200);
  const articles = Array.from({ length: n }, (_, i) => ({ id: `${slug}${i}`, text: `${slug} ${i}: BRCA1 (P38398) and TP53 (P04637).` }));
  const ids: string[] = Object.values((await ms.articles(slug, articles)).ids);
  await ms.startServer(server.id, token);
  return { serverId: server.id as number, ids };
}

/** GET /api/servers/:id as its team sees it. */
export async function serverStatus(ms: TestMetaserver, token: string, id: number) {
  return (await ms.request('GET', `/api/servers/${id}`, undefined, token)).body;
}

/** The outcomes of an article's attempts at a server, in order. */
export async function attemptOutcomes(ms: TestMetaserver, articleId: string, serverId: number): Promise<string[]> {
  const body = (await ms.request('GET', `/api/articles/${articleId}/responses/${serverId}`, undefined, ADMIN_TOKEN)).body;
  return (body.attempts as Array<{ outcome: string }>).map((a) => a.outcome);
}
