// Who a request comes from, for the limits that are per client (submissions per minute,
// on-demand articles waiting): a team by its token, anyone else by address. An IPv6 host
// usually holds a whole /64 and can pick any address in it, so IPv6 clients count by /64.
// The address is the connection's unless the connection comes from a proxy the operator
// named (trustProxy): only then is X-Forwarded-For believed.
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { proxyEntries } from '../config.ts';

/** The trustProxy option from the setting (checked when the configuration is loaded): false when empty, else its entries. */
export function trustedProxies(setting: string): false | string[] {
  const entries = proxyEntries(setting);
  return entries.length === 0 ? false : entries;
}

/** The address a client is counted under: IPv4 as is, IPv6 by its /64. */
function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address); // an IPv4-mapped IPv6 address becomes IPv4
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The per-client key: team:<id>, admin, or ip:<address or /64>. Call after the principal is known (the onRequest hook). */
export function clientKey(request: FastifyRequest): string {
  const p = request.principal;
  if (p?.role === 'team') return `team:${p.teamId}`;
  if (p?.role === 'admin') return 'admin';
  return `ip:${addressKey(request.ip)}`;
}
