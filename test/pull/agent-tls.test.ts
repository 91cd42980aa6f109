// A meta-server whose certificate the agent's machine does not trust (signed by an
// organisation's own authority; here self-signed, made with `openssl` for 127.0.0.1): the
// agent says what to set — NODE_EXTRA_CA_CERTS for the Node agent, SSL_CERT_FILE for the
// Python one — and with that set, the same certificate is trusted (the meta-server's answer,
// a 503 here, is what the agent reports next).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkDownError, MetaLink } from '../../src/agent/meta-link.ts';
import { startAgentProcess, type AgentProcess } from '../support/agent-process.ts';
import { waitFor } from '../support/runtime.ts';
import { selfSignedCertificate } from '../support/self-signed.ts';

const PYTHON_AGENT = fileURLToPath(new URL('../../examples/python/pull_agent.py', import.meta.url));
const UNTRUSTED = /certificate/i;

let dir: string;
let cert: string;
let server: Server;
let url: string;
const running: Array<{ kill(signal?: NodeJS.Signals): void }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metaserver-agent-tls-'));
  const made = selfSignedCertificate(dir);
  cert = made.cert;
  // Every request: a meta-server restarting, so an agent that got through says so and waits.
  server = createServer({ cert: readFileSync(cert), key: readFileSync(made.key) }, (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'shutting_down', message: 'restarting' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function nodeAgent(env: Record<string, string>): Promise<AgentProcess> {
  const args = ['--server', '1', '--forward', 'http://127.0.0.1:9/', '--protocol', 'json', '--wait', '1'];
  const agent = await startAgentProcess(args, { METASERVER_URL: url, METASERVER_TOKEN: 'team-token', ...env });
  running.push(agent);
  return agent;
}

/** The Python agent's stderr lines, as they come. */
function pythonAgent(env: Record<string, string>): { lines: string[] } {
  const child = spawn('python3', [PYTHON_AGENT, '--server', '1', '--forward', 'http://127.0.0.1:9/', '--protocol', 'json', '--wait', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, METASERVER_URL: url, METASERVER_TOKEN: 'team-token', ...env },
  });
  running.push(child);
  const lines: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  return { lines };
}

const lineWith = (lines: string[], pattern: RegExp) =>
  waitFor(`a line matching ${pattern}`, async () => lines.find((l) => pattern.test(l)), 15_000);

describe('a meta-server certificate the agent does not trust', () => {
  it('the Node agent names NODE_EXTRA_CA_CERTS, and trusts the certificate with it set', async () => {
    const link = new MetaLink({ url, token: 'team-token', serverId: 1 }, 1);
    const err = await link.take(1).then(
      () => undefined,
      (e: unknown) => e,
    );
    await link.close();
    expect(err).toBeInstanceOf(LinkDownError);
    expect((err as Error).message).toMatch(
      /\(DEPTH_ZERO_SELF_SIGNED_CERT\): the meta-server's certificate is not trusted here; .*set NODE_EXTRA_CA_CERTS=\/path\/to\/that-ca\.pem for the agent$/,
    );

    // What a team sees: the running agent says it, and keeps trying.
    const untrusted = await nodeAgent({});
    expect(await lineWith(untrusted.lines, /trying again in/)).toMatch(/not trusted here; .*set NODE_EXTRA_CA_CERTS=/);
    untrusted.kill('SIGKILL');

    const trusting = await nodeAgent({ NODE_EXTRA_CA_CERTS: cert });
    expect(await lineWith(trusting.lines, /trying again in/)).toMatch(/the meta-server answered HTTP 503: restarting/);
    expect(trusting.lines.join('\n')).not.toMatch(UNTRUSTED);
    trusting.kill('SIGKILL');
  }, 40_000);

  it('the Python agent names SSL_CERT_FILE, and trusts the certificate with it set', async () => {
    const untrusted = pythonAgent({});
    expect(await lineWith(untrusted.lines, /trying again in/)).toMatch(
      /CERTIFICATE_VERIFY_FAILED.*organisation's own authority, set SSL_CERT_FILE=\/path\/to\/ca-bundle\.pem/,
    );
    const trusting = pythonAgent({ SSL_CERT_FILE: cert });
    expect(await lineWith(trusting.lines, /trying again in/)).toMatch(/the meta-server answered HTTP 503: restarting/);
    expect(trusting.lines.join('\n')).not.toMatch(UNTRUSTED);
  }, 40_000);
});
