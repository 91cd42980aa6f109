// Where a server's host name resolves is checked when a connection is made, on the very
// addresses connected to (policedLookup, given to each server's agent): a name that leads to
// a refused address fails the call as `connection` with the rule in the detail and no bytes
// sent; an allowed one is resolved once per connection, not once per request. Uses the
// machine's own resolver for "localhost".
import { afterAll, describe, expect, it } from 'vitest';
import type { LookupFunction } from 'node:net';
import { policedLookup, RefusedAddressError } from '../../src/http/url-policy.ts';
import { callXmlRpc, createServerAgent } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';

const servers: FaultyServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** policedLookup, counting how often a connection asked it. */
function counted(publicUrlsOnly: boolean): { lookup: LookupFunction; calls: () => number } {
  const inner = policedLookup(publicUrlsOnly);
  let n = 0;
  return {
    lookup: (hostname, options, callback) => {
      n++;
      inner(hostname, options, callback);
    },
    calls: () => n,
  };
}

const body = encodeMethodCall('Annotator.getAnnotation', ['BRCA1 (P38398) binds TP53.']);

describe('the resolved address, checked at connect time', () => {
  it('a name resolving to loopback is refused on a public deployment: no request reaches the server', async () => {
    const server = await startFaultyServer({ kind: 'good' });
    servers.push(server);
    const agent = createServerAgent({ lookup: policedLookup(true) });
    const out = await callXmlRpc(
      { url: `http://localhost:${server.port}/RPC2`, body, deadlineMs: 5_000, maxResponseBytes: 1 << 20 },
      agent,
    );
    await agent.close();
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe('connection');
    expect(out.detail).toMatch(
      /^the server URL cannot be called: localhost resolves to (127\.0\.0\.1|::1) is a loopback address, and this meta-server only calls public addresses; no request was made$/,
    );
    expect(out.bytesSent).toBe(0);
    expect(server.requests).toBe(0);
  });

  it('allowed on a private deployment, and resolved once per connection, not once per request', async () => {
    const server = await startFaultyServer({ kind: 'good' });
    servers.push(server);
    const { lookup, calls } = counted(false);
    const agent = createServerAgent({ connections: 1, lookup });
    for (let i = 0; i < 5; i++) {
      const out = await callXmlRpc(
        { url: `http://localhost:${server.port}/RPC2`, body, deadlineMs: 5_000, maxResponseBytes: 1 << 20 },
        agent,
      );
      expect(out.ok).toBe(true);
    }
    await agent.close();
    expect(server.requests).toBe(5);
    expect(calls()).toBe(1);
  });

  it('answers both forms net.connect asks in, and names the rule when it refuses', async () => {
    const lookup = policedLookup(false);
    const one = await new Promise<unknown[]>((resolve) => lookup('localhost', {}, (...args) => resolve(args)));
    expect(one[0]).toBeNull();
    expect(one[1]).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect([4, 6]).toContain(one[2]);
    const all = await new Promise<unknown[]>((resolve) => lookup('localhost', { all: true }, (...args) => resolve(args)));
    expect(all[0]).toBeNull();
    expect(Array.isArray(all[1]) && all[1].length).toBeGreaterThan(0);
    const refused = await new Promise<unknown[]>((resolve) => policedLookup(true)('localhost', { all: true }, (...args) => resolve(args)));
    expect(refused[0]).toBeInstanceOf(RefusedAddressError);
    expect((refused[0] as RefusedAddressError).code).toBe('ERR_REFUSED_ADDRESS');
  });
});
