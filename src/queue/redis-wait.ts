// At start, REDIS_URL's Redis may not answer yet: in a compose file or an orchestrator the
// processes start side by side, and a Redis restarting on its append-only file answers
// LOADING for a while. A process waits for it (METASERVER_REDIS_WAIT_SECONDS) rather than
// exiting 1, saying so once when it starts waiting, every half minute while it waits, and
// once when Redis answers; a failure that waiting cannot cure stops it at once.
import type { Logger } from '../log.ts';
import { redisMayComeUp, redisRefusal } from './redis-refusal.ts';
import { RedisUnavailableError } from './redis-errors.ts';

/** How often a Redis that does not answer is asked again. */
const PROBE_EVERY_MS = 1_000;
/** How often the wait says it is still waiting. */
const SAY_EVERY_MS = 30_000;

/** Null when Redis answers PING; else why not (redis-launcher.ts's probe). */
export type RedisProbe = (url: string) => Promise<Error | null>;

/** Resolves once Redis at `url` answers; rejects with what failed and what to do when it cannot be cured by waiting, or after `waitSeconds`. */
export async function waitForRedis(url: string, waitSeconds: number, probe: RedisProbe, log: Logger): Promise<void> {
  const started = Date.now();
  let said = 0;
  for (;;) {
    const failure = await probe(url);
    const waited = Date.now() - started;
    if (!failure) {
      if (said > 0) log.info({ waitedMs: waited }, `Redis answers after ${Math.round(waited / 1000)} s of waiting`);
      return;
    }
    const refusal = redisRefusal(url, failure);
    if (!redisMayComeUp(url, failure)) throw new RedisUnavailableError(refusal);
    if (waited >= waitSeconds * 1000)
      throw new RedisUnavailableError(
        `${refusal} (waited ${Math.round(waited / 1000)} s: METASERVER_REDIS_WAIT_SECONDS is ${waitSeconds})`,
      );
    if (said === 0 || waited - said >= SAY_EVERY_MS) {
      log.warn({ waitedMs: waited, waitSeconds }, `${refusal} — waiting for it, up to ${waitSeconds} s (METASERVER_REDIS_WAIT_SECONDS)`);
      said = Math.max(waited, 1);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(PROBE_EVERY_MS, waitSeconds * 1000 - waited)));
  }
}
