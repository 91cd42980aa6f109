// GET /api/whoami: whose token this is. The web pages check a token when it is saved, so a
// mistyped or revoked token is refused at once, in words, instead of every panel failing.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.ts';

export type WhoAmI = { role: 'organiser' } | { role: 'team'; team: { id: number; name: string } } | { role: 'anonymous' };

export function whoamiRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/whoami',
      { schema: { tags: ['teams'], summary: 'Whose token this is: the organiser, a team (with its name) or nobody (no token); a token that is not valid is a 401' } },
      async (request): Promise<WhoAmI> => {
        const principal = await ctx.auth.principal(request);
        if (principal.role === 'admin') return { role: 'organiser' };
        if (principal.role === 'team') return { role: 'team', team: { id: principal.teamId, name: principal.teamName } };
        return { role: 'anonymous' };
      },
    );
  };
}
