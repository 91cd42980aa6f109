// The connections calls go out on: an undici Agent per annotation server (or one shared),
// kept alive between calls, with no timeouts of its own — undici's (300 s for headers and
// body, 10 s for connect) would cut a 600 s deadline short; the call's deadline rules.
import type { LookupFunction } from 'node:net';
import { Agent, type buildConnector } from 'undici';

/**
 * An undici Agent for one annotation server: keep-alive, and no timeouts of its own (the
 * call's deadline rules). `lookup` resolves host names for new connections; `connect`
 * replaces the connector altogether (the URL policy's, see dispatch/annotators/policed-agent.ts).
 */
export function createServerAgent(opts: { connections?: number; lookup?: LookupFunction; connect?: buildConnector.connector } = {}): Agent {
  return new Agent({
    connections: opts.connections ?? 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: opts.connect ?? (opts.lookup ? { timeout: 0, lookup: opts.lookup } : { timeout: 0 }),
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
    pipelining: 1,
  });
}

let sharedAgent: Agent | undefined;

/** The agent of calls made without one (tests, the XML-RPC callers on their own). */
export function defaultAgent(): Agent {
  sharedAgent ??= createServerAgent({ connections: 64 });
  return sharedAgent;
}
