// A part the request needs is down: 503 with Retry-After, naming the part and what to do.
// Changes the database already holds are not refused this way: they are accepted (202) and
// reach the queues once Redis answers again (see src/dispatch/reconciler.ts).
import { ApiError } from './api-error.ts';

export type Part = 'redis' | 'database';

const NAMES: Record<Part, string> = { redis: 'Redis (the queue store)', database: 'the database' };

export class ServiceUnavailableError extends ApiError {
  constructor(
    readonly part: Part,
    retryAfterSeconds: number,
    what: string,
  ) {
    super(
      `${part}_unavailable`,
      `${NAMES[part]} is unreachable, so ${what}. Try again in ${retryAfterSeconds} s.`,
      { part },
      retryAfterSeconds,
    );
  }
}

/** The database's disk is full: the change was not stored; space freed by the operator lets it through again. */
export class DiskFullError extends ApiError {
  constructor() {
    super(
      'database_disk_full',
      "the database's disk is full, so this change was not stored (reads still work); the operator must free space in the data directory or grow the volume, and work resumes by itself. Try again later.",
      undefined,
      30,
    );
  }
}

/** The sentence an accepted change carries when its queue step is left for later ("the articles are stored"). */
export const queuedLaterNotice = (done: string) =>
  `${NAMES.redis} did not answer: ${done}, and the queues catch up by themselves as soon as it answers again`;

/** When a client refused because the process is stopping should ask again: about a restart's time. */
const RESTART_RETRY_SECONDS = 5;

/**
 * The process is stopping: 503 in the API's error shape, and the connection closes, so the
 * client's next try reaches a process that runs (a restarted one, or another behind the proxy).
 */
export function shuttingDown(reply: { header(name: string, value: string): unknown }): ApiError {
  void reply.header('connection', 'close');
  return new ApiError(
    'shutting_down',
    `the meta-server is stopping (a restart or an upgrade); try again in ${RESTART_RETRY_SECONDS} s`,
    undefined,
    RESTART_RETRY_SECONDS,
  );
}
