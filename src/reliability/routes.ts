// The reliability overview of a challenge: every server's figures (reliability/figures.ts).
// Organiser-only: it names every team's servers.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { Type } from 'typebox';
import { Described, Open, responses, SlugParams } from '../http/schemas.ts';

export function reliabilityRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/challenges/:slug/reliability',
      {
        schema: {
          tags: ['operations'],
          summary: 'Reliability figures of every server of a challenge (organiser)',
          params: SlugParams,
          response: responses({
            200: Open({ challenge: Type.String(), servers: Described('the reliability figures of each server (src/reliability)') }),
          }),
        },
        config: { access: 'admin' },
      },
      async (request) => {
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        return { challenge: challenge.slug, servers: await ctx.repos.reliability.challenge(challenge.id) };
      },
    );
  };
}
