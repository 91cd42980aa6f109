// The connections calls go out on: an undici Agent per annotation server (or one shared),
// kept alive between calls, with no header or body timeouts of its own — undici's (300 s)
// would cut a 600 s deadline short; the call's deadline rules. The connect is the
// exception: a host that drops SYNs (a firewall, a NAT) leaves a connect pending until the
// kernel gives up (~130 s), and undici does not end a pending connect when the call is
// aborted. So an agent's connect timeout is the deadline of the calls it carries: the
// connection attempt, and the pool slot it holds, end when the call does.
import type { LookupFunction } from 'node:net';
import { Agent, type buildConnector } from 'undici';

/**
 * An undici Agent for one annotation server: keep-alive, and no header or body timeouts
 * (the call's deadline rules). `connectTimeoutMs`: the deadline of the calls it carries (none
 * when not given: the call still ends at its deadline, but the connect holds its slot until
 * the kernel gives up). `lookup` resolves host names for new connections; `connect` replaces
 * the connector altogether (the URL policy's, see dispatch/annotators/policed-agent.ts),
 * and then brings its own connect timeout.
 */
export function createServerAgent(
  opts: { connections?: number; lookup?: LookupFunction; connect?: buildConnector.connector; connectTimeoutMs?: number } = {},
): Agent {
  const timeout = opts.connectTimeoutMs ?? 0;
  return new Agent({
    connections: opts.connections ?? 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: opts.connect ?? (opts.lookup ? { timeout, lookup: opts.lookup } : { timeout }),
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
