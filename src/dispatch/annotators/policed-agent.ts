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

/** undici's connector, refusing hosts the policy refuses and resolving names through its lookup. */
function policedConnector(publicUrlsOnly: boolean): buildConnector.connector {
  // No connect timeout of its own: the call's deadline rules (see createServerAgent).
  const connect = buildConnector({ timeout: 0, lookup: policedLookup(publicUrlsOnly) });
  return (options, callback) => {
    const problem = hostProblem(options.hostname, publicUrlsOnly);
    if (problem) {
      callback(new RefusedAddressError(problem), null);
      return;
    }
    connect(options, callback);
  };
}

/** A policed agent for one annotation server (dispatch keeps one per server). */
export function createPolicedAgent(opts: { connections: number; publicUrlsOnly: boolean }): Agent {
  return createServerAgent({ connections: opts.connections, connect: policedConnector(opts.publicUrlsOnly) });
}

const agents = new Map<boolean, Agent>();

/** One shared agent per policy (whether only public addresses may be called), for checks and callbacks. */
export function policedAgent(publicUrlsOnly: boolean): Agent {
  let agent = agents.get(publicUrlsOnly);
  if (!agent) {
    agent = createPolicedAgent({ connections: CONNECTIONS_PER_ORIGIN, publicUrlsOnly });
    agents.set(publicUrlsOnly, agent);
  }
  return agent;
}
