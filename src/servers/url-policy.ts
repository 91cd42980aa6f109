// Which annotation-server URLs the meta-server will call. Link-local and cloud-metadata
// addresses are never called (they reach the host's own secrets); private and loopback
// addresses are refused too on a public deployment (publicUrlsOnly).
import { lookup as lookupCallback, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const ALWAYS_REFUSED = new Set(['linkLocal', 'unspecified', 'broadcast', 'multicast', 'reserved']);
const PRIVATE = new Set(['private', 'loopback', 'uniqueLocal', 'carrierGradeNat']);
const METADATA_HOSTS = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', 'metadata.google.internal']);

function addressProblem(address: string, publicUrlsOnly: boolean): string | null {
  if (!ipaddr.isValid(address)) return null;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (METADATA_HOSTS.has(ip.toString())) return `${address} is a cloud metadata address`;
  if (ALWAYS_REFUSED.has(range)) return `${address} is a ${range} address`;
  if (publicUrlsOnly && PRIVATE.has(range)) return `${address} is a ${range} address, and this meta-server only calls public addresses`;
  return null;
}

/** null when the URL may be registered; else what is wrong with it, for the person registering. */
export function urlProblem(raw: string, publicUrlsOnly: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not a URL; give the full address, e.g. http://annotator.example.org:8000/RPC2`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs can be called, not ${url.protocol}`;
  if (url.username || url.password) return 'URLs with a user name or password are not accepted';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata address`;
  if (publicUrlsOnly && (host === 'localhost' || host.endsWith('.localhost'))) return `${host} is a loopback name, and this meta-server only calls public addresses`;
  return addressProblem(host, publicUrlsOnly);
}

/** The same rules after DNS resolution, for names that resolve to a refused address. */
export async function resolvedUrlProblem(raw: string, publicUrlsOnly: boolean): Promise<string | null> {
  const direct = urlProblem(raw, publicUrlsOnly);
  if (direct) return direct;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return null;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return null; // an unresolvable name fails at call time as a connection error, with its own message
  }
  return resolvedProblem(host, addresses, publicUrlsOnly);
}

/** What is wrong with the first refused address a name resolves to, or null. */
function resolvedProblem(host: string, addresses: ReadonlyArray<{ address: string }>, publicUrlsOnly: boolean): string | null {
  for (const { address } of addresses) {
    const problem = addressProblem(address, publicUrlsOnly);
    if (problem) return `${host} resolves to ${problem}`;
  }
  return null;
}

/** Raised at connect time when a server's host name resolves to an address the policy refuses. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'ERR_REFUSED_ADDRESS';
}

/**
 * A `lookup` for the connections to annotation servers (undici's `connect` option, passed
 * on to net.connect) that applies the rules after DNS on the very addresses connected to.
 * It runs once per connection, not once per request — a resolver round trip per request,
 * on libuv's four threads, would queue thousands of calls behind one another — and leaves
 * no gap between the check and the connection in which the name could be re-pointed.
 * Literal IP addresses never reach it: urlProblem checks those.
 */
export function policedLookup(publicUrlsOnly: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '');
      const problem = resolvedProblem(hostname, addresses, publicUrlsOnly);
      if (problem) return callback(new RefusedAddressError(problem), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
