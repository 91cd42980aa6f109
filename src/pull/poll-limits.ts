// How many lease requests (long-polls) may wait at once in this process: per pull server
// max(2 × its concurrency, 4) — two agents at full concurrency, or one restarting beside the
// old — and per team `leasePollsPerTeam` over all its servers. Without a bound, one team's
// flood of polls (200 at once, well under the per-minute rate limit) took the time of the
// process that every other team's work goes through. Beyond a bound: 429 with Retry-After,
// naming the bound; the agent takes it as "ask again later".
import { ApiError } from '../http/api-error.ts';
import type { AnnotationServer } from '../servers/repository.ts';

/** When a refused poll should ask again: about when a waiting one has its answer. */
const RETRY_AFTER_SECONDS = 5;

/** The most polls of one server waiting at once. */
function pollsPerServer(server: Pick<AnnotationServer, 'concurrency'>): number {
  return Math.max(2 * server.concurrency, 4);
}

export class PollLimits {
  private readonly byServer = new Map<number, number>();
  private readonly byTeam = new Map<number, number>();

  constructor(private readonly perTeam: number) {}

  /** Counts a poll of the server in, or refuses it (429); the caller must call the returned release once it has answered. */
  admit(server: Pick<AnnotationServer, 'id' | 'teamId' | 'concurrency'>): () => void {
    const ofServer = this.byServer.get(server.id) ?? 0;
    const ofTeam = this.byTeam.get(server.teamId) ?? 0;
    const serverBound = pollsPerServer(server);
    if (ofServer >= serverBound)
      throw refused(
        `server ${server.id} has ${ofServer} lease requests waiting already, its most (max(2 × its concurrency ${server.concurrency}, 4)); run fewer agent loops (--concurrency) or ask again after Retry-After`,
        'server',
        serverBound,
      );
    if (ofTeam >= this.perTeam)
      throw refused(
        `your team's pull servers have ${ofTeam} lease requests waiting already, the most one team may have (leasePollsPerTeam); ask again after Retry-After`,
        'team',
        this.perTeam,
      );
    add(this.byServer, server.id, 1);
    add(this.byTeam, server.teamId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      add(this.byServer, server.id, -1);
      add(this.byTeam, server.teamId, -1);
    };
  }
}

function refused(message: string, bound: 'server' | 'team', limit: number): ApiError {
  return new ApiError('too_many_polls', message, { bound, limit }, RETRY_AFTER_SECONDS);
}

function add(counts: Map<number, number>, key: number, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
