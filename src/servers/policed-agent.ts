// The connections for calls made outside dispatch — the setup check of a server and the
// completion callbacks — go through the URL policy's lookup like dispatch's own: a host
// name is checked on the address actually connected to, so a name re-pointed after its
// registration (at a cloud metadata address, say) is refused when connecting instead of
// being called with its answer quoted back to whoever asked for the check.
import type { Agent } from 'undici';
import { createServerAgent } from '../xmlrpc/client.ts';
import { policedLookup } from './url-policy.ts';

/** Connections kept per origin: checks and callbacks are occasional. */
const CONNECTIONS_PER_ORIGIN = 8;

const agents = new Map<boolean, Agent>();

/** One shared agent per policy (whether only public addresses may be called). */
export function policedAgent(publicUrlsOnly: boolean): Agent {
  let agent = agents.get(publicUrlsOnly);
  if (!agent) {
    agent = createServerAgent({ connections: CONNECTIONS_PER_ORIGIN, lookup: policedLookup(publicUrlsOnly) });
    agents.set(publicUrlsOnly, agent);
  }
  return agent;
}
