// Waiting for something that may never answer (a Redis connection queues commands while it
// reconnects, so a command sent while Redis is down waits until it is back).

/**
 * `work`'s value, or `fallback` when it fails or has not settled within `ms`. The timer is
 * cleared as soon as one of the two is known, so nothing is left behind per call.
 */
export async function withinTime<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}
