import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { conflict } from '../http/api-error.ts';
import { Open, responses } from '../http/schemas.ts';

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    contact: Type.String({ minLength: 3, maxLength: 200, description: 'An e-mail address or other way to reach the team.' }),
  },
  { additionalProperties: false },
);

export function teamRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/teams',
      {
        schema: {
          tags: ['teams'],
          summary: 'Register a team; the token is shown only in this answer',
          body: CreateBody,
          response: responses({
            201: Open({
              id: Type.Integer(),
              name: Type.String(),
              token: Type.String({ description: 'the team token: shown only now, keep it' }),
            }),
          }),
        },
        // Anyone may register a team, unless the organiser registers them (openTeamRegistration off).
        config: {
          access: ctx.config.openTeamRegistration ? 'public' : 'admin',
          rateLimit: { max: ctx.config.submitRateLimitPerMinute, timeWindow: 60_000 },
        },
      },
      async (request, reply) => {
        const token = newToken('team');
        const team = await ctx.repos.teams.create(request.body.name.trim(), request.body.contact, hashToken(token));
        if (!team) throw conflict(`a team named "${request.body.name}" exists already; choose another name`);
        request.log.info({ teamId: team.id, team: team.name }, 'team registered');
        return reply.status(201).send({ id: team.id, name: team.name, token });
      },
    );
  };
}
