// A pull server and its challenge as the lease routes read them: kept for a second. Every
// lease request and every answer needed both, and a waiting long-poll read them again on each
// look at the queue — several database reads per article that a queue worker (which keeps
// them the same way, dispatch/queue-window.ts) does not make.
// What a second's delay could change is held elsewhere at once: a pause is the queue's own
// flag (a paused queue hands out no job), a close is checked by the attempt's write
// (beginAttemptUnlessAnswered answers 'closed'), and a server's team never changes. A server
// whose setup check still waits for its agent is read fresh each time, so the sample
// article is not offered again from a stale copy after its answer came.
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import { serverWithChallenge, type ServerWithChallenge } from '../servers/with-challenge.ts';
import { awaitsSetupAnswer } from '../servers/setup-check/agent-wait.ts';
import { LoadingCache } from '../shared/loading-cache.ts';

const KEEP_MS = 1_000;
const SERVERS_KEPT = 1024;

export class PullLookups {
  private readonly found = new LoadingCache<number, ServerWithChallenge>(SERVERS_KEPT, KEEP_MS);

  constructor(private readonly repos: { servers: Pick<ServerRepository, 'byId'>; challenges: Pick<ChallengeRepository, 'byId'> }) {}

  /** The server with its challenge, at most a second old; null when either is gone. */
  async get(serverId: number): Promise<ServerWithChallenge | null> {
    const load = (id: number) => serverWithChallenge(this.repos, id);
    const kept = await this.found.get(serverId, load);
    if (!kept || !awaitsSetupAnswer(kept.server.check)) return kept;
    this.found.invalidate(serverId);
    return await this.found.get(serverId, load);
  }
}
