// The reliability overview of a challenge: every server's figures (reliability/figures.ts).
// Organiser-only: it names every team's servers.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { requireAdmin } from '../auth/principal.ts';
import { notFound } from '../http/api-error.ts';
import { SlugParams } from '../http/schemas.ts';

export function reliabilityRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/challenges/:slug/reliability',
      { schema: { tags: ['operations'], summary: 'Reliability figures of every server of a challenge (organiser)', params: SlugParams } },
      async (request) => {
        requireAdmin(await ctx.auth.principal(request));
        const challenge = await ctx.repos.challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        return { challenge: challenge.slug, servers: await ctx.repos.reliability.challenge(challenge.id) };
      },
    );
  };
}
