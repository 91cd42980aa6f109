// The one deadline of a call: connect, send, wait, receive — and, for an asynchronous
// answer, every poll and every wait between them — all under one clock, started once. Its
// signal is the one every step hands to undici and to the waits between polls, so when the
// deadline passes (or the caller cancels) whatever step is under way ends at once, and the
// connection it used is closed.

export interface Deadline {
  /** The whole call's time, as configured (for the timeout's detail). */
  readonly ms: number;
  /** Aborts the step under way when the deadline passes, the caller cancels, or abort() is called. */
  readonly signal: AbortSignal;
  /** True once the deadline has passed (not when the caller cancelled, nor after abort()). */
  readonly expired: boolean;
  /** True once the caller's signal aborted: the meta-server withdrew the call. */
  readonly cancelled: boolean;
  /** Ends the exchange now: the connection of a refused answer is closed, not kept for the next call. */
  abort(): void;
  /** Stops the clock: the answer is in, and reading it is our time, not the server's. Call when the call ends, too. */
  stop(): void;
}

export function startDeadline(ms: number, cancel?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(
    () => {
      expired = true;
      controller.abort();
    },
    Math.max(1, ms),
  );
  const onCancel = (): void => controller.abort();
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  return {
    ms,
    signal: controller.signal,
    get expired() {
      return expired;
    },
    get cancelled() {
      return cancel?.aborted ?? false;
    },
    abort: () => controller.abort(),
    stop: () => {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}

/** Resolves when `ms` have passed; rejects at once when `signal` aborts (the deadline). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
