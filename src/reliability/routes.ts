// The reliability overview of a challenge: every server's figures (reliability/figures.ts).
// Organiser-only: it names every team's servers.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ChallengeRepository } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { Described, Open, responses, SlugParams } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { ReliabilityRepository } from './repository.ts';

/** What the overview reads, handed over by the composition root: the challenge, then its servers' figures. */
export interface ReliabilityRouteDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  reliability: Pick<ReliabilityRepository, 'challenge'>;
}

const ChallengeReliability = {
  tags: ['operations'],
  summary: 'Reliability figures of every server of a challenge (organiser)',
  params: SlugParams,
  response: responses({
    200: Open({ challenge: Type.String(), servers: Described('the reliability figures of each server (src/reliability)') }),
  }),
};

function overviewHandler(deps: ReliabilityRouteDeps): RouteHandler<typeof ChallengeReliability> {
  return async (request) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    return { challenge: challenge.slug, servers: await deps.reliability.challenge(challenge.id) };
  };
}

export function reliabilityRoutes(deps: ReliabilityRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/api/challenges/:slug/reliability', { schema: ChallengeReliability, config: { access: 'admin' } }, overviewHandler(deps));
  };
}
