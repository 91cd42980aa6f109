// Every connection to an annotation server or a callback URL — dispatch, the setup check,
// completion callbacks — goes through one URL policy (http/url-policy.ts), applied when the
// connection is made: the host as named in the URL (an IP literal, "localhost", a metadata
// name) before connecting, and where a name resolves to on the very addresses connected
// to. So a URL registered before the policy changed (a loopback server, and then
// publicUrlsOnly was turned on) and a name re-pointed after its registration (at a cloud
// metadata address, say) are refused at the next call, with nothing sent and nothing quoted back.
import { buildConnector, type Agent } from 'undici';
import { createServerAgent } from './http-call.ts';
import { hostProblem, policedLookup, RefusedAddressError } from '../../http/url-policy.ts';

/** Connections kept per origin by the shared agent: checks and callbacks are occasional. */
const CONNECTIONS_PER_ORIGIN = 8;

/**
 * undici's connector, refusing hosts the policy refuses and resolving names through its
 * lookup. Its connect timeout is the deadline of the agent's calls (see createServerAgent):
 * undici does not end a pending connect when a call is aborted, so without one a host that
 * drops SYNs would hold the connection slot until the kernel gives up (~130 s).
 */
function policedConnector(publicUrlsOnly: boolean, connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: policedLookup(publicUrlsOnly) });
  return (options, callback) => {
    const problem = hostProblem(options.hostname, publicUrlsOnly);
    if (problem) {
      callback(new RefusedAddressError(problem), null);
      return;
    }
    connect(options, callback);
  };
}

/**
 * A policed agent for one annotation server (dispatch keeps one per server).
 * `connectTimeoutMs`: the deadline of the calls it carries.
 */
export function createPolicedAgent(opts: { connections: number; publicUrlsOnly: boolean; connectTimeoutMs: number }): Agent {
  return createServerAgent({ connections: opts.connections, connect: policedConnector(opts.publicUrlsOnly, opts.connectTimeoutMs) });
}

const agents = new Map<string, Agent>();

/**
 * One shared agent per policy (whether only public addresses may be called) and deadline,
 * for checks and callbacks: each has one configured deadline, so there are a few at most.
 */
export function policedAgent(publicUrlsOnly: boolean, connectTimeoutMs: number): Agent {
  const key = `${publicUrlsOnly} ${connectTimeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = createPolicedAgent({ connections: CONNECTIONS_PER_ORIGIN, publicUrlsOnly, connectTimeoutMs });
    agents.set(key, agent);
  }
  return agent;
}
