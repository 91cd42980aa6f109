// GET /api/whoami: whose token this is. The web pages check a token when it is saved, so a
// mistyped or revoked token is refused at once, in words, instead of every panel failing.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { responses } from '../http/schemas.ts';
import { principalOf } from './access.ts';

export type WhoAmI = { role: 'organiser' } | { role: 'team'; team: { id: number; name: string } } | { role: 'anonymous' };

const WhoAmIAnswer = Type.Object({
  role: Type.Union([Type.Literal('organiser'), Type.Literal('team'), Type.Literal('anonymous')]),
  team: Type.Optional(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

export function whoamiRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/whoami',
      {
        schema: {
          tags: ['teams'],
          summary: 'Whose token this is: the organiser, a team (with its name) or nobody (no token); a token that is not valid is a 401',
          response: responses({ 200: WhoAmIAnswer }),
        },
        // Public: answering for any caller is the point; a token that is not valid is refused (401) by the access hook.
        config: { access: 'public' },
      },
      async (request): Promise<WhoAmI> => {
        const principal = principalOf(request);
        if (principal.role === 'admin') return { role: 'organiser' };
        if (principal.role === 'team') return { role: 'team', team: { id: principal.teamId, name: principal.teamName } };
        return { role: 'anonymous' };
      },
    );
  };
}
