// Why a Redis named by REDIS_URL did not answer PING, told from ioredis's error: a wrong
// password, an ACL user without a permission, an untrusted certificate and TLS spoken to a
// plain port each need a different fix, and "does not answer" names none of them. Every
// message shows the URL without its password.
import { redactUrl } from '../shared/redact-url.ts';

/** TLS errors (Node's codes) meaning the server's certificate is not one this process trusts. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

const NOT_ANSWERING = 'start it, fix REDIS_URL, or unset REDIS_URL to let metaserver find or start one.';

/** The server's reply or the socket's error code, e.g. `WRONGPASS`, `NOPERM`, `ECONNREFUSED`. */
function codeOf(error: Error | undefined): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return /^[A-Z]+\b/.exec(error?.message ?? '')?.[0] ?? '';
}

/** The ACL category a refused command is in, as the README's "Redis permissions" list names them. */
const CATEGORY_OF: Record<string, string> = {
  eval: '@scripting',
  evalsha: '@scripting',
  script: '@scripting',
  multi: '@transaction',
  exec: '@transaction',
  publish: '@pubsub',
  subscribe: '@pubsub',
  info: 'info',
  del: '@keyspace',
  unlink: '@keyspace',
  exists: '@keyspace',
  pexpire: '@keyspace',
  scan: '@keyspace',
  get: '@read',
  set: '@write',
  hset: '@write',
  lpush: '@write',
  zadd: '@write',
  sadd: '@write',
  xadd: '@write',
};

const PERMISSIONS_SECTION = 'see "Redis permissions (ACL)" in the README for the whole list';

/** What to grant for a NOPERM: the command's category, or the key or channel pattern. */
function grant(message: string): string {
  if (/to access .*\bkeys?\b/i.test(message))
    return `grant the keys under the queue prefix (ACL SETUSER <user> ~<prefix>:*); ${PERMISSIONS_SECTION}.`;
  if (/to access .*\bchannels?\b/i.test(message))
    return `grant the channels under the queue prefix (ACL SETUSER <user> &<prefix>:*); ${PERMISSIONS_SECTION}.`;
  // A subcommand is named as `cluster|info`: granted as such, not the whole command.
  const command = /'([^']+)' command/.exec(message)?.[1]?.toLowerCase();
  const category = command ? CATEGORY_OF[command] : undefined;
  if (category)
    return `grant ${category === 'info' ? 'the command' : 'the category'} (ACL SETUSER <user> +${category}); ${PERMISSIONS_SECTION}.`;
  return `grant it (ACL SETUSER <user> +${command ?? '<the command named>'}); ${PERMISSIONS_SECTION}.`;
}

/** The sentence after "Redis at REDIS_URL (url)": what failed and what to do about it. */
function cause(url: string, error: Error | undefined): string {
  const code = codeOf(error);
  const message = error?.message ?? 'no answer';
  const tls = url.startsWith('rediss:');
  if (code === 'WRONGPASS' || code === 'NOAUTH' || /invalid username-password pair/i.test(message)) {
    return `refused the credentials (${message}): check the user and password in REDIS_URL.`;
  }
  if (code === 'NOPERM') return `accepted the ACL user, but it lacks a permission (${message}): ${grant(message)}`;
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return `sent a TLS certificate that is not trusted (${code}: ${message}): set NODE_EXTRA_CA_CERTS to the file of the CA that signed it (or renew an expired one).`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `sent a TLS certificate for another name (${message}): connect by a host name the certificate holds.`;
  }
  if (tls && (code.startsWith('ERR_SSL_') || /wrong version number/i.test(message))) {
    return `does not speak TLS on that port (${message}): TLS to a port that does not speak TLS; use redis:// or the TLS port.`;
  }
  if (tls && code === 'ETIMEDOUT') {
    return `did not answer the TLS handshake (${message}): if that port does not speak TLS, use redis:// or the TLS port; otherwise ${NOT_ANSWERING}`;
  }
  if (!tls && code === 'ECONNRESET') {
    return `closed the connection at once (${message}): if that port speaks TLS only, use rediss://; otherwise ${NOT_ANSWERING}`;
  }
  return `does not answer (${message}): ${NOT_ANSWERING}`;
}

/** Why REDIS_URL's Redis cannot be used, and what to do; the URL shown without its password. */
export function redisRefusal(url: string, error: Error | undefined): string {
  return `Redis at REDIS_URL (${redactUrl(url)}) ${cause(url, error)}`;
}

/** Failures that a Redis still starting (or a network still coming up) gives: worth waiting for at start. */
const NOT_UP_YET = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'LOADING']);

/**
 * Whether waiting may cure this failure: Redis not listening yet, its name not resolvable
 * yet, or loading its append-only file. A refused password, a permission, a certificate or
 * TLS to the wrong port will not change by waiting.
 */
export function redisMayComeUp(url: string, error: Error | undefined): boolean {
  const code = codeOf(error);
  return NOT_UP_YET.has(code) || (code === 'ETIMEDOUT' && !url.startsWith('rediss:'));
}
