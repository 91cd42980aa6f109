// Servers registered for batches (batchSize > 1), through the whole dispatch path, against
// servers written with Python's standard library: XML-RPC's system.multicall as
// SimpleXMLRPCServer serves it, and the JSON protocol's array form as the Python sample
// server answers it. Each article is still judged, stored and retried on its own: one
// article's fault inside a multicall fails that article alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../src/cli/check-server.ts';
import { annotate } from '../../src/sample/annotator.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const MULTICALL_SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'batches', 'multicall_server.py');

interface MulticallPeer {
  url: string;
  /** The articles of each system.multicall request, in order; 0 for a plain call. */
  calls: number[];
  child: ChildProcess;
}

async function startMulticallPeer(): Promise<MulticallPeer> {
  const child = spawn('python3', [MULTICALL_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const calls: number[] = [];
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the multicall peer exited with code ${code}`)));
    lines.on('line', (line) => {
      const ready = /^listening on (\S+)/.exec(line);
      if (ready) resolve(ready[1]);
      const call = /^call (multicall (\d+)|single)$/.exec(line);
      if (call) calls.push(call[2] === undefined ? 0 : Number(call[2]));
    });
  });
  return { url, calls, child };
}

let ms: TestMetaserver;
let peer: MulticallPeer;
let python: PythonServer;
let token: string;
let ids: Record<string, string>;

const ARTICLES = Array.from({ length: 9 }, (_, i) => ({
  id: `B${i + 1}`,
  text: i === 4 ? 'This one makes the tagger FAULT.' : `Article ${i + 1}: BRCA1 binds TP53${' and binds'.repeat(i)}.`,
}));

beforeAll(async () => {
  ms = await startTestMetaserver();
  [peer, python] = await Promise.all([startMulticallPeer(), startPythonServer(['--protocol', 'json'])]);
  await ms.challenge('batch', { name: 'Batches', tasks: ['ACT', 'MENTION'], maxAttempts: 2, retryDelaySeconds: 0, serversPerTeam: 10 });
  token = (await ms.team('Batchers')).token;
  ids = (await ms.articles('batch', ARTICLES)).ids;
});
afterAll(async () => {
  await ms?.stop();
  peer?.child.kill('SIGTERM');
  python?.stop();
});

async function settled(serverId: number, total: number) {
  return await waitFor(`server ${serverId} to settle`, async () => {
    const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, token);
    const p = res.body.progress;
    return p.done + p.failed === total && p.queued === 0 && p.active === 0 ? res.body : undefined;
  });
}

/** The server's stored answer as the article's page shows it (waited for: the page's answer may be kept for a moment). */
async function answerOf(serverId: number, organiserId: string) {
  return await waitFor(`${organiserId}'s answer from server ${serverId}`, async () => {
    const article = await ms.request('GET', `/api/articles/${ids[organiserId]}`, undefined, ADMIN_TOKEN);
    return article.body.servers.find((s: { serverId: number; result?: unknown }) => s.serverId === serverId && s.result);
  });
}

describe('servers registered for batches', () => {
  it('XML-RPC: articles go by system.multicall, each stored on its own; a fault inside a multicall fails that article alone', async () => {
    const server = await ms.server('batch', token, { name: 'multicall', url: peer.url, tasks: ['ACT'], batchSize: 4, concurrency: 1 });
    expect(server.batchSize).toBe(4);
    // The setup check is a multicall of one: a server registered for batches always gets the batch form.
    expect(server.check.ok).toBe(true);
    // (The peer prints a line per request before answering it; the line may reach us a moment after the answer.)
    await waitFor('the check request seen', async () => (peer.calls.length > 0 ? true : undefined));
    expect(peer.calls).toEqual([1]);

    await ms.startServer(server.id, token);
    const status = await settled(server.id, ARTICLES.length);
    expect(status.progress).toMatchObject({ done: 8, failed: 1 });
    await waitFor('every request seen', async () => (peer.calls.slice(1).reduce((a, b) => a + b, 0) >= 10 ? true : undefined));
    // Every request was a multicall of at most batchSize articles, and together they carried
    // each good article once and the failing one once per attempt (2): nothing sent twice.
    const dispatched = peer.calls.slice(1);
    expect(dispatched.every((n) => n >= 1 && n <= 4)).toBe(true);
    expect(dispatched.reduce((a, b) => a + b, 0)).toBe(8 + 2);
    // The failing article's two attempts are faults naming its own error, not the batch's.
    expect(status.errors).toHaveLength(2);
    for (const e of status.errors) {
      expect(e).toMatchObject({ article: 'B5', kind: 'fault' });
      expect(e.detail).toMatch(/this tagger fails on this article/);
    }
    // Each stored answer is the one for its own article.
    for (const [k, article] of ARTICLES.entries()) {
      if (k === 4) continue;
      const answer = await answerOf(server.id, article.id);
      const n = (article.text.match(/bind/g) ?? []).length;
      expect(answer.result.ACT).toEqual({ relevant: true, confidence: n / (n + 1) });
    }
  });

  it('JSON: an array of requests answered by an array of answers, equal to one-by-one answers', async () => {
    const server = await ms.server('batch', token, {
      name: 'json-batches',
      url: python.url,
      protocol: 'json',
      tasks: ['ACT', 'MENTION'],
      batchSize: 3,
      concurrency: 2,
    });
    expect(server.check.ok).toBe(true);
    await ms.startServer(server.id, token);
    const status = await settled(server.id, ARTICLES.length);
    expect(status.progress).toMatchObject({ done: ARTICLES.length, failed: 0 });
    for (const article of ARTICLES) {
      const answer = await answerOf(server.id, article.id);
      const expected = annotate(article.text).mentions as Array<{ offset: number; mention: string }>;
      expect(answer.result.MENTION.map((m: { start: number; text: string }) => [m.start, m.text])).toEqual(
        expected.map((m) => [m.offset, m.mention]),
      );
    }
  });

  it('`metaserver check-server --batch-size` sends every hard article in the batch form, judged as dispatch judges it', async () => {
    const before = peer.calls.length;
    const lines: string[] = [];
    const code = await runCheckServerCommand([peer.url, '--tasks', 'ACT', '--batch-size', '4'], (line) => lines.push(line));
    expect(code, lines.join('\n')).toBe(0);
    await waitFor('the check requests seen', async () => (peer.calls.length - before >= 7 ? true : undefined));
    expect(peer.calls.slice(before)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(await runCheckServerCommand([peer.url, '--batch-size', '0'], () => {})).toBe(2);
  });

  it('refuses batches where there is no batch form: a pull server, or a size out of range', async () => {
    const pull = await ms.request(
      'POST',
      '/api/challenges/batch/servers',
      { name: 'p', protocol: 'pull', tasks: ['ACT'], batchSize: 5 },
      token,
    );
    expect(pull.status).toBe(400);
    expect(pull.body.error.message).toMatch(/leave "batchSize" out/);
    const big = await ms.request(
      'POST',
      '/api/challenges/batch/servers',
      { name: 'b', url: peer.url, tasks: ['ACT'], batchSize: 101 },
      token,
    );
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.body)).toMatch(/batchSize/);
  });
});
