// The annotator protocols, each one module (types.ts says what a module is). Adding a
// protocol: write its module and list it here; registration, dispatch, the setup check,
// `metaserver check-server`, the API and the pages take it from this list.
import { json } from './json.ts';
import { pubannotation } from './pubannotation.ts';
import type { AnnotatorProtocol } from './types.ts';
import { xmlrpc } from './xmlrpc.ts';

export const PROTOCOLS = [xmlrpc, json, pubannotation] as const;

export type ProtocolName = (typeof PROTOCOLS)[number]['name'];

export const PROTOCOL_NAMES: ProtocolName[] = PROTOCOLS.map((p) => p.name);

/** A server registered without a `protocol` speaks XML-RPC, as BCMS servers did. */
export const DEFAULT_PROTOCOL: ProtocolName = 'xmlrpc';

const BY_NAME = new Map<string, AnnotatorProtocol>(PROTOCOLS.map((p) => [p.name, p]));

/** The protocol of that name (a server's, as stored); the default for none. */
export function protocolOf(name: string | undefined): AnnotatorProtocol {
  const protocol = BY_NAME.get(name ?? DEFAULT_PROTOCOL);
  if (!protocol) throw new Error(`unknown annotator protocol "${name}"; known: ${PROTOCOL_NAMES.join(', ')}`);
  return protocol;
}

/**
 * A server registered with protocol "pull" has no URL: the meta-server never connects to
 * it; its agent takes articles on lease over HTTPS (src/pull) and answers in the JSON
 * protocol's terms, read by the JSON protocol's decoder.
 */
export const PULL_PROTOCOL = 'pull';

/** What a registration's `protocol` may be: an annotator protocol the meta-server calls, or pull. */
export type ServerProtocolName = ProtocolName | typeof PULL_PROTOCOL;

/** The protocol a pulled answer (and the lease's request) is written in. */
export const PULL_WIRE_PROTOCOL: ProtocolName = 'json';

export function isPulled(server: { protocol?: string }): boolean {
  return server.protocol === PULL_PROTOCOL;
}
