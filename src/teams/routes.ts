// POST /api/teams: a team registers itself (or the organiser registers it) and gets its
// token, shown only in this answer. The plugin takes the settings and the team repository
// by name from the composition root.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { conflict } from '../http/api-error.ts';
import { Open, responses } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { TeamRepository } from './repository.ts';

/** What registering a team needs, handed over by the composition root. */
export interface TeamRouteDeps {
  config: Pick<Config, 'openTeamRegistration' | 'submitRateLimitPerMinute'>;
  teams: Pick<TeamRepository, 'create'>;
}

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    contact: Type.String({ minLength: 3, maxLength: 200, description: 'An e-mail address or other way to reach the team.' }),
  },
  { additionalProperties: false },
);
const RegisterTeam = {
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
};

function registerHandler(deps: TeamRouteDeps): RouteHandler<typeof RegisterTeam> {
  return async (request, reply) => {
    const token = newToken('team');
    const team = await deps.teams.create(request.body.name.trim(), request.body.contact, hashToken(token));
    if (!team) throw conflict(`a team named "${request.body.name}" exists already; choose another name`);
    request.log.info({ teamId: team.id, team: team.name }, 'team registered');
    return reply.status(201).send({ id: team.id, name: team.name, token });
  };
}

export function teamRoutes(deps: TeamRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { openTeamRegistration, submitRateLimitPerMinute } = deps.config;
    // Anyone may register a team, unless the organiser registers them (openTeamRegistration off).
    const access = openTeamRegistration ? 'public' : 'admin';
    app.post(
      '/teams',
      { schema: RegisterTeam, config: { access, rateLimit: { max: submitRateLimitPerMinute, timeWindow: 60_000 } } },
      registerHandler(deps),
    );
  };
}
