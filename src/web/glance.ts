// The organiser's glance (/fragments/organiser, fetched again every 5 s), built from
// aggregates: per challenge, its counts, its servers and their deliveries by state — three
// queries — and its servers' reliability figures. Those read every attempt and answer of the
// challenge, so they are kept and refreshed in the background (a glance answers with the
// figures of the previous refresh, at most one poll old, rather than waiting for them).
// Open challenges come first; closed ones are folded to one line each unless asked for
// (?closed=show). It used to build each server's full status (its error list and histogram
// included) to show one row: 0.9–2 s per refresh with two challenges of 20 servers.
import type { Challenge, ChallengeRepository } from '../challenges/repository.ts';
import type { ReliabilityFigures } from '../reliability/figures.ts';
import type { ReliabilityRepository } from '../reliability/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { ServerStatusRepository } from '../servers/status-repository.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import { GLANCE_POLL_MS, type ChallengeGlance } from './pages/organiser.ts';

export interface Glance {
  /** Open challenges (setup, test) with their servers, then closed ones (folded unless showClosed). */
  challenges: ChallengeGlance[];
}

/** What the glance reads: the challenges and their counts, their servers, progress and reliability. */
export interface GlanceRepositories {
  challenges: Pick<ChallengeRepository, 'list' | 'counts'>;
  servers: Pick<ServerRepository, 'listByChallenge'>;
  serverStatus: Pick<ServerStatusRepository, 'challengeProgress'>;
  reliability: Pick<ReliabilityRepository, 'challenge'>;
}

export function glanceReader(repos: GlanceRepositories): (opts: { showClosed: boolean }) => Promise<Glance> {
  // Refreshed in the background once older than one poll; kept a minute at most, so an
  // organiser coming back after a while waits once for fresh figures.
  const reliability = new LoadingCache<number, Map<number, ReliabilityFigures>>(64, 60_000, GLANCE_POLL_MS - 1000);
  const figuresOf = async (challengeId: number) =>
    (await reliability.get(
      challengeId,
      async (id) => new Map((await repos.reliability.challenge(id)).map((r) => [r.serverId, r.reliability])),
    ))!;

  async function challengeGlance(challenge: Challenge, full: boolean): Promise<ChallengeGlance> {
    // The organiser's page: how many articles are scored and background too.
    const counts = await repos.challenges.counts(challenge.id, { marks: true });
    if (!full) return { challenge: { ...challenge, counts }, servers: [], folded: true };
    const [servers, progress, figures] = await Promise.all([
      repos.servers.listByChallenge(challenge.id),
      repos.serverStatus.challengeProgress(challenge.id),
      figuresOf(challenge.id),
    ]);
    return {
      challenge: { ...challenge, counts },
      servers: servers.map((s) => ({
        id: s.id,
        name: s.name,
        team: s.team,
        state: s.state,
        progress: progress.get(s.id) ?? { queued: 0, active: 0, done: 0, failed: 0 },
        ...(figures.has(s.id) ? { reliability: figures.get(s.id)! } : {}),
      })),
    };
  }

  return async ({ showClosed }) => {
    const all = await repos.challenges.list();
    const open = all.filter((c) => c.phase !== 'closed');
    const closed = all.filter((c) => c.phase === 'closed');
    const challenges = [];
    for (const c of open) challenges.push(await challengeGlance(c, true));
    for (const c of closed) challenges.push(await challengeGlance(c, showClosed));
    return { challenges };
  };
}
