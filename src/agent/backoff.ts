// The agent's wait before trying again, after the meta-server could not be reached (or
// answered 5xx/429) or while the team's own server does not answer: a pure function of the
// previous wait, so its growth and its cap are tested without waiting for them.

/** The documented longest wait between two tries, whatever the options and the jitter. */
const MAX_BACKOFF_MS = 30_000;

/** The meta-server's back-off unless the options say otherwise: 0.5 s doubling, at most 30 s. */
export const META_BACKOFF = { minMs: 500, maxMs: MAX_BACKOFF_MS };

/**
 * The wait after `previous` ms (0 before the first): minMs, then doubling, each jittered by
 * ±25 % (`random` in [0, 1)), never more than maxMs nor MAX_BACKOFF_MS.
 */
export function nextBackoff(previous: number, of: { minMs: number; maxMs: number }, random: () => number = Math.random): number {
  const maxMs = Math.min(of.maxMs, MAX_BACKOFF_MS);
  const next = previous === 0 ? of.minMs : Math.min(maxMs, previous * 2);
  // Agents restarted together do not come back together; the cap holds after the jitter too.
  return Math.min(maxMs, Math.round(next * (0.75 + random() * 0.5)));
}
