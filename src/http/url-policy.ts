// Which annotation-server URLs the meta-server will call. Link-local and cloud-metadata
// addresses are never called (they reach the host's own secrets); private and loopback
// addresses are refused too on a public deployment (publicUrlsOnly). An IPv6 address that
// embeds an IPv4 one is judged by the IPv4 host it reaches. The same rules apply when a
// URL is registered and at every connection made (policed-agent.ts), so a URL registered
// before the policy changed is refused from then on.
import { lookup as lookupCallback, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const ALWAYS_REFUSED = new Set(['linkLocal', 'unspecified', 'broadcast', 'multicast', 'reserved', 'discard']);
const PRIVATE = new Set(['private', 'loopback', 'uniqueLocal', 'carrierGradeNat']);

/**
 * The instance-metadata and platform services of the clouds, which hand out the host's
 * credentials and identity: AWS (EC2 over IPv4 and IPv6, ECS task and EKS pod identity),
 * Azure (IMDS and the WireServer, on a public address), Google, Oracle (its older
 * address), Alibaba, Tencent, Equinix Metal and Rancher. Most are link-local or private
 * anyway; they are named here so they are refused on a private deployment too, with a
 * message that says what they are.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  'fd00:ec2::254',
  'fd00:ec2::23',
  '168.63.129.16',
  '192.0.0.192',
  '100.100.100.200',
  '169.254.0.23',
]);
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.tencentyun.com',
  'metadata.packet.net',
  'metadata.platformequinix.com',
  'rancher-metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

const ipv4 = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address stands for: mapped ::ffff:a.b.c.d and translated
 * ::ffff:0:a.b.c.d (RFC 4291, 6145), compatible ::a.b.c.d (RFC 4291, deprecated but
 * still routed by some stacks), NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48 with
 * the address in the last 32 bits (RFC 6052, 8215), 6to4 2002:AABB:CCDD::/48 (RFC 3056),
 * and Teredo's server and (inverted) client address (RFC 4380). Each reaches that IPv4
 * host through a translator or tunnel, so it is judged as that host.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = ip.parts;
  const range = ip.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return [ipv4(p[6], p[7])];
  if (range === '6to4') return [ipv4(p[1], p[2])];
  if (range === 'teredo') return [ipv4(p[2], p[3]), ipv4(~p[6] & 0xffff, ~p[7] & 0xffff)];
  const compatible = p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1); // not :: or ::1
  return compatible ? [ipv4(p[6], p[7])] : [];
}

function singleAddressProblem(shown: string, ip: ipaddr.IPv4 | ipaddr.IPv6, publicUrlsOnly: boolean): string | null {
  const range = ip.range();
  if (METADATA_ADDRESSES.has(ip.toString())) return `${shown} is a cloud metadata address`;
  if (ALWAYS_REFUSED.has(range)) return `${shown} is a ${range} address`;
  if (publicUrlsOnly && PRIVATE.has(range)) return `${shown} is a ${range} address, and this meta-server only calls public addresses`;
  return null;
}

function addressProblem(address: string, publicUrlsOnly: boolean): string | null {
  if (!ipaddr.isValid(address)) return null;
  const ip = ipaddr.parse(address);
  const own = singleAddressProblem(address, ip, publicUrlsOnly);
  if (own || ip.kind() === 'ipv4') return own;
  for (const inner of embeddedIPv4(ip as ipaddr.IPv6)) {
    const problem = singleAddressProblem(`${address} (which stands for ${inner.toString()})`, inner, publicUrlsOnly);
    if (problem) return problem;
  }
  return null;
}

/** What is wrong with calling a host as named in a URL (an address or a name, before DNS), or null. */
export function hostProblem(hostname: string, publicUrlsOnly: boolean): string | null {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata address`;
  if (publicUrlsOnly && (host === 'localhost' || host.endsWith('.localhost')))
    return `${host} is a loopback name, and this meta-server only calls public addresses`;
  return addressProblem(host, publicUrlsOnly);
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
  return hostProblem(url.hostname, publicUrlsOnly);
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
 * Literal IP addresses never reach it: the connector of policed-agent.ts checks those.
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
