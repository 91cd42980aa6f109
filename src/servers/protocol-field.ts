// The `protocol` field of a server's registration: which annotator protocol the server
// speaks (dispatch/annotators/registry.ts), and what a protocol rules out — the XML-RPC
// method name means nothing to the others, and a protocol that can only answer some tasks
// (PubAnnotation: mentions) cannot be registered for the rest.
import { Type } from 'typebox';
import { DEFAULT_PROTOCOL, PROTOCOLS, PULL_PROTOCOL, protocolOf, type ServerProtocolName } from '../dispatch/annotators/registry.ts';
import type { TaskName } from '../families/registry.ts';

export const ProtocolField = Type.Optional(
  Type.Union([...PROTOCOLS.map((p) => Type.Literal(p.name)), Type.Literal(PULL_PROTOCOL)], {
    description:
      `Annotator protocol the server speaks (default ${DEFAULT_PROTOCOL}): ${PROTOCOLS.map((p) => `${p.name} — ${p.summary}`).join('; ')}; ` +
      `${PULL_PROTOCOL} — no URL: the meta-server never connects; an agent next to the server takes articles on lease (POST /api/servers/{id}/leases).`,
  }),
);

/** Why a registration cannot have this protocol ('' when it can). */
export function protocolProblem(
  name: ServerProtocolName,
  body: { tasks: readonly TaskName[]; method?: string; url?: string; batchSize?: number },
): string {
  if (name === PULL_PROTOCOL) return pullProblem(body);
  if (body.url === undefined)
    return `"url" is needed: the address the meta-server sends articles to; a server the meta-server cannot reach is registered with protocol "${PULL_PROTOCOL}" and no URL, and runs an agent`;
  const protocol = protocolOf(name);
  if (body.method !== undefined && !protocol.usesMethod) {
    return `"method" is the XML-RPC method name; a server speaking ${protocol.label} (protocol "${protocol.name}") has none: leave it out`;
  }
  if ((body.batchSize ?? 1) > 1 && !protocol.batch) {
    return `a server speaking ${protocol.label} (protocol "${protocol.name}") takes one article per call: leave "batchSize" out`;
  }
  const cannot = protocol.tasks ? body.tasks.filter((t) => !protocol.tasks!.includes(t)) : [];
  if (cannot.length > 0) {
    return `a server speaking ${protocol.label} (protocol "${protocol.name}") answers ${protocol.tasks!.join(', ')} only, not ${cannot.join(', ')}: register it for ${protocol.tasks!.join(', ')}, or give another protocol`;
  }
  return '';
}

/** A pull server has no URL and no method: its agent fetches the work, in the JSON protocol's terms. */
function pullProblem(body: { method?: string; url?: string; batchSize?: number }): string {
  if ((body.batchSize ?? 1) > 1)
    return `a server with protocol "${PULL_PROTOCOL}" takes articles on lease as its agent asks for them ("limit" of POST /api/servers/{id}/leases): leave "batchSize" out`;
  if (body.url !== undefined) {
    return `a server with protocol "${PULL_PROTOCOL}" has no URL: the meta-server never connects to it, its agent (metaserver agent) fetches the articles; leave "url" out, or give the protocol the server speaks at that URL`;
  }
  if (body.method !== undefined)
    return `"method" is the XML-RPC method name; a server with protocol "${PULL_PROTOCOL}" has none (its agent calls your server in its own protocol): leave it out`;
  return '';
}
