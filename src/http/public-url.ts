// The address this server writes for itself (Location headers, the OpenAPI `servers`, the
// callback's Content-Location, the start banner). Behind a reverse proxy that terminates
// TLS, the connection the server sees is plain HTTP from the proxy: the address clients use
// is the `publicUrl` setting when given; otherwise the request's own scheme and host, where
// X-Forwarded-Proto and X-Forwarded-Host count only from a trustProxy address (fastify's
// request.protocol and request.host believe them under exactly that rule). The pages link
// root-relatively, so they follow whatever host and scheme the browser used.
import type { FastifyRequest } from 'fastify';

/** The publicUrl setting without a trailing slash, or null when it is empty. */
export function configuredPublicUrl(config: { publicUrl: string }): string | null {
  return config.publicUrl === '' ? null : new URL(config.publicUrl).origin;
}

/** A Host header this server repeats in its answers: a name or address and an optional port, nothing else. */
const PLAIN_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** scheme://host of this request as its client addressed it (see the file comment). */
export function publicBaseOf(request: FastifyRequest, config: { publicUrl: string }): string {
  const configured = configuredPublicUrl(config);
  if (configured) return configured;
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  let host = request.host;
  if (!PLAIN_HOST.test(host)) {
    // No usable Host (HTTP/1.0, or a value that is not a host name): the address the connection reached.
    const { localAddress, localPort } = request.raw.socket;
    host = `${localAddress?.includes(':') ? `[${localAddress}]` : (localAddress ?? '127.0.0.1')}:${localPort ?? ''}`;
  }
  return `${protocol}://${host}`;
}

/** The absolute URL of a path of this server (path starts with "/"), for this request's client. */
export function absoluteUrlOf(request: FastifyRequest, config: { publicUrl: string }, path: string): string {
  return `${publicBaseOf(request, config)}${path}`;
}

/**
 * Where the server says it serves, without a request (the start banner, logs): publicUrl
 * when set, else the address it listens on.
 */
export function announcedUrl(config: { publicUrl: string }, listening: { host: string; port: number }): string {
  const configured = configuredPublicUrl(config);
  if (configured) return configured;
  const host = listening.host === '0.0.0.0' || listening.host === '::' ? '127.0.0.1' : listening.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listening.port}`;
}
