// Which errors a queue worker reports are Redis's connection failing (refused, reset, closed,
// loading its data after a restart) rather than something about a job. The first are an
// outage — one warning while it lasts (shared/condition.ts) — the others a warning each.

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries|^LOADING|connect ETIMEDOUT/i;

/** True when err says the Redis connection failed, not a command. */
export function isRedisConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] };
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  // AggregateError: every address of the host refused
  return Array.isArray(e.errors) && e.errors.length > 0 && isRedisConnectionError(e.errors[0]);
}
