// The `protocol` field of a server's registration: which annotator protocol the server
// speaks (dispatch/annotators/registry.ts), and what a protocol rules out — the XML-RPC
// method name means nothing to the others, and a protocol that can only answer some tasks
// (PubAnnotation: mentions) cannot be registered for the rest.
import { Type } from 'typebox';
import { DEFAULT_PROTOCOL, PROTOCOLS, protocolOf, type ProtocolName } from '../dispatch/annotators/registry.ts';
import type { TaskName } from '../families/registry.ts';

export const ProtocolField = Type.Optional(
  Type.Union(
    PROTOCOLS.map((p) => Type.Literal(p.name)),
    { description: `Annotator protocol the server speaks (default ${DEFAULT_PROTOCOL}): ${PROTOCOLS.map((p) => `${p.name} — ${p.summary}`).join('; ')}.` },
  ),
);

/** Why a registration cannot have this protocol ('' when it can). */
export function protocolProblem(name: ProtocolName, body: { tasks: readonly TaskName[]; method?: string }): string {
  const protocol = protocolOf(name);
  if (body.method !== undefined && !protocol.usesMethod) {
    return `"method" is the XML-RPC method name; a server speaking ${protocol.label} (protocol "${protocol.name}") has none: leave it out`;
  }
  const cannot = protocol.tasks ? body.tasks.filter((t) => !protocol.tasks!.includes(t)) : [];
  if (cannot.length > 0) {
    return `a server speaking ${protocol.label} (protocol "${protocol.name}") answers ${protocol.tasks!.join(', ')} only, not ${cannot.join(', ')}: register it for ${protocol.tasks!.join(', ')}, or give another protocol`;
  }
  return '';
}
