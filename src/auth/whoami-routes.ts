// GET /api/whoami: whose token this is. The web pages check a token when it is saved, so a
// mistyped or revoked token is refused at once, in words, instead of every panel failing.
// It needs nothing but the request's principal, which the access hook has set.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { principalOf } from './access.ts';

export type WhoAmI = { role: 'organiser' } | { role: 'team'; team: { id: number; name: string } } | { role: 'anonymous' };

const WhoAmIAnswer = Type.Object({
  role: Type.Union([Type.Literal('organiser'), Type.Literal('team'), Type.Literal('anonymous')]),
  team: Type.Optional(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
const WhoAmIQuestion = {
  tags: ['teams'],
  summary: 'Whose token this is: the organiser, a team (with its name) or nobody (no token); a token that is not valid is a 401',
  response: responses({ 200: WhoAmIAnswer }),
};

const whoami: RouteHandler<typeof WhoAmIQuestion> = async (request): Promise<WhoAmI> => {
  const principal = principalOf(request);
  if (principal.role === 'admin') return { role: 'organiser' };
  if (principal.role === 'team') return { role: 'team', team: { id: principal.teamId, name: principal.teamName } };
  return { role: 'anonymous' };
};

export function whoamiRoutes(): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // Public: answering for any caller is the point; a token that is not valid is refused (401) by the access hook.
    app.get('/whoami', { schema: WhoAmIQuestion, config: { access: 'public' } }, whoami);
  };
}
