// Stopping the meta-server does not wait out the long-polls: a real `metaserver serve`
// process with several teams' agents' lease requests waiting (wait=30, plain HTTP) gets
// SIGTERM; every poll is answered within about 2 s with 503 shutting_down in the API's error
// shape and a Retry-After, and the process exits 0 within a few seconds. (Before, it waited
// the polls' 30 s out and answered requests meanwhile with fastify's own 503 body.) Also
// open then: a connection that has sent nothing yet, as an agent's client leaves after it
// aborts a poll, which Node's server waited for up to its headersTimeout (60 s).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seedDataDir } from '../support/pglite-template.ts';
import { setupRequests } from '../support/setup-requests.ts';
import { waitFor } from '../support/runtime.ts';
import { ADMIN_TOKEN, installationEnv, servingAddress, startCli, type CliProcess } from '../deploy/cli-process.ts';

let dir: string | undefined;
let serve: CliProcess | undefined;
afterAll(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  await serve?.exited;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM with agents long-polling', () => {
  it('answers every waiting poll at once with 503 shutting_down and exits within a few seconds', async () => {
    dir = seedDataDir(mkdtempSync(join(tmpdir(), 'metaserver-poll-shutdown-')));
    serve = startCli(
      ['serve'],
      installationEnv({
        METASERVER_DATA_DIR: dir,
        REDIS_URL: inject('redisUrl'),
        METASERVER_QUEUE_PREFIX: `pollstop-${process.pid}`,
      }),
    );
    const base = await servingAddress(serve);
    const request = async (method: string, url: string, body?: unknown, token?: string) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    const setup = setupRequests(request, ADMIN_TOKEN);
    await setup.challenge('stop', { tasks: ['ACT'] });
    const polls: Array<Promise<Awaited<ReturnType<typeof request>>>> = [];
    for (let t = 0; t < 3; t++) {
      const { token } = await setup.team(`Agents ${t}`);
      const server = await setup.server('stop', token, { name: `pulled ${t}`, protocol: 'pull', tasks: ['ACT'] });
      const leases = `/api/servers/${server.id}/leases`;
      // The first poll takes the setup article (and holds it): the next ones find no work and wait.
      expect((await request('POST', `${leases}?wait=1`, undefined, token)).status).toBe(200);
      for (let i = 0; i < 4; i++) polls.push(request('POST', `${leases}?wait=30`, undefined, token));
      // The server's bound (4 waiting at once) refuses one more only once all 4 wait: then they are in.
      await waitFor('the 4 polls waiting', async () => {
        const extra = await request('POST', `${leases}?wait=0`, undefined, token);
        return extra.status === 429 ? true : undefined;
      });
    }
    const { hostname, port } = new URL(base);
    const silent = connect(Number(port), hostname);
    await new Promise((resolve, reject) => silent.once('connect', resolve).once('error', reject));
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    silent.on('error', () => {}); // reset by the closing server: expected
    const stoppedAt = Date.now();
    serve.child.kill('SIGTERM');
    const answers = await Promise.all(polls.map(async (p) => ({ ...(await p), ms: Date.now() - stoppedAt })));
    for (const a of answers) {
      expect(a.ms).toBeLessThan(2_500);
      expect(a.status).toBe(503);
      expect(a.body.error).toMatchObject({ code: 'shutting_down' });
      expect(a.body.error.message).toMatch(/stopping/);
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await serve.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(6_000);
    await silentClosed;
  }, 30_000);
});
