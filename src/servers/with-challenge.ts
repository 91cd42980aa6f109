// A server with its challenge as they are now: what dispatch looks up for each job's server
// (its deadline, retry settings and phase are the challenge's).
import type { Challenge, ChallengeRepository } from '../challenges/repository.ts';
import type { AnnotationServer, ServerRepository } from './repository.ts';

export interface ServerWithChallenge {
  server: AnnotationServer;
  challenge: Challenge;
}

/** The server and its challenge; null when the server (or its challenge) is gone. */
export async function serverWithChallenge(
  repos: { servers: Pick<ServerRepository, 'byId'>; challenges: Pick<ChallengeRepository, 'byId'> },
  serverId: number,
): Promise<ServerWithChallenge | null> {
  const server = await repos.servers.byId(serverId);
  const challenge = server ? await repos.challenges.byId(server.challengeId) : null;
  return server && challenge ? { server, challenge } : null;
}
