// Retries database writes that failed because the connection did, not because the write was
// wrong: PostgreSQL restarting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
// connect now), connection exceptions (class 08) and sockets refused or reset. A write that
// fails for good is reported as DatabaseUnavailableError, so dispatch can tell "our database
// was down" from "the annotation server failed" and never blame a team for the former.
import { DatabaseUnavailableError } from '../db/database.ts';

const PG_CONNECTION_CODES = new Set(['57P01', '57P02', '57P03']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH', 'ENETUNREACH']);
// pg raises plain Errors without a code when a pooled client's socket dies mid-query.
const CONNECTION_MESSAGES =
  /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i;

/** True when err (or anything it wraps) says the database connection failed, not the statement. */
export function isConnectionError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (current instanceof DatabaseUnavailableError) return true;
    const e = current as { code?: unknown; message?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof e.code === 'string' && (PG_CONNECTION_CODES.has(e.code) || e.code.startsWith('08') || SOCKET_CODES.has(e.code))) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
    // AggregateError (several addresses refused) and wrapped causes
    current = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause;
  }
  return false;
}

/**
 * SQLSTATEs that say the database refuses work for now, whatever the statement: 25006 read-only
 * (a standby after failover, `default_transaction_read_only`), class 53 insufficient resources
 * (53100 disk full, 53200 out of memory, 53300 too many connections), and the 57P0x of a server
 * shutting down or starting. The same write succeeds once the condition clears.
 */
const PG_REFUSING_CODES = new Set(['25006']);
const PG_REFUSING_CLASSES = ['53', '57P0'];
/** A full disk under PGlite surfaces as the file system's error, not as a SQLSTATE. */
const REFUSING_MESSAGES = /No space left on device|ENOSPC/i;

/**
 * True when err (or anything it wraps) is our database failing — its connection, or the
 * database refusing writes for a while (read-only, disk full, out of memory) — rather than
 * something wrong with the work itself. Dispatch treats these as "the database, not the
 * annotation server": the job waits and is made again, never counted against the server.
 */
export function isDatabaseFailure(err: unknown): boolean {
  if (isConnectionError(err)) return true;
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof e.code === 'string') {
      const code = e.code;
      if (PG_REFUSING_CODES.has(code) || PG_REFUSING_CLASSES.some((c) => code.startsWith(c)) || code === 'ENOSPC') return true;
    }
    if (typeof e.message === 'string' && REFUSING_MESSAGES.test(e.message)) return true;
    current = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause;
  }
  return false;
}

/** True when err (or anything it wraps) is the database's disk full: SQLSTATE 53100, or the file system's ENOSPC under PGlite. */
export function isDiskFull(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (e.code === '53100' || e.code === 'ENOSPC') return true;
    if (typeof e.message === 'string' && REFUSING_MESSAGES.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}

export interface RetryPolicy {
  /** Retries after the first failure (0: no retry). */
  retries: number;
  /** Back-off before the first retry; doubles each time, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** About 30 s of trying (0.1 + 0.2 + … capped at 5 s): long enough to ride out a PostgreSQL restart. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 10, baseDelayMs: 100, maxDelayMs: 5_000 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs fn; on a connection-class error waits and runs it again, up to policy.retries times.
 * fn must be safe to repeat: a transaction that failed was rolled back, and the dispatch
 * writes are idempotent or guarded (answers: "on conflict do nothing").
 */
export async function withDbRetry<T>(
  what: string,
  fn: () => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      if (attempt >= policy.retries) {
        throw new DatabaseUnavailableError(
          `the database was unreachable while trying to ${what} (${policy.retries + 1} tries): ${(err as Error).message}`,
          { cause: err },
        );
      }
      onRetry?.(err, attempt + 1);
      await sleep(Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs));
    }
  }
}
