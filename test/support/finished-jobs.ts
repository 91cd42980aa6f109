// Finished jobs leave Redis (src/dispatch/queues.ts): once a pair is settled in the database,
// its job goes too — at once, or a moment later when the worker has just returned.
import type { TestMetaserver } from './runtime.ts';
import { waitFor } from './runtime.ts';

/** Resolves when the server's queue holds no job in any state; fails after timeoutMs. */
export async function queueEmptied(ms: TestMetaserver, serverId: number, timeoutMs = 5_000): Promise<void> {
  await waitFor(
    `server ${serverId}'s queue to hold no finished job`,
    async () => {
      const counts = await ms.ctx.dispatch.queues.counts(serverId);
      return Object.values(counts).every((n) => n === 0) ? true : undefined;
    },
    timeoutMs,
  );
}
