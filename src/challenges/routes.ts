import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireAdmin } from '../auth/principal.ts';
import { conflict, notFound } from '../http/api-error.ts';
import { SlugParams, TaskListSchema } from '../http/schemas.ts';
import type { Challenge } from './repository.ts';

const Settings = {
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: 'Deadline of one attempt (default 600).' })),
  maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Tries per article and server (default 3).' })),
  retryDelaySeconds: Type.Optional(Type.Number({ minimum: 0, maximum: 600, description: 'Back-off before the 2nd try; doubles, capped at 10 minutes (default 30).' })),
  serversPerTeam: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  mentionTypes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200, uniqueItems: true })),
};

const CreateBody = Type.Object(
  { slug: SlugParams.properties.slug, name: Type.String({ minLength: 1, maxLength: 200 }), tasks: TaskListSchema, ...Settings },
  { additionalProperties: false },
);

const PatchBody = Type.Object(
  { phase: Type.Optional(Type.Union([Type.Literal('setup'), Type.Literal('test'), Type.Literal('closed')])), name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...Settings },
  { additionalProperties: false },
);

export async function challengeView(ctx: AppContext, c: Challenge) {
  return { ...c, counts: await ctx.repos.challenges.counts(c.id) };
}

export function challengeRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { challenges } = ctx.repos;

    app.post('/challenges', { schema: { tags: ['challenges'], summary: 'Create a challenge (organiser)', body: CreateBody } }, async (request, reply) => {
      requireAdmin(await ctx.auth.principal(request));
      const created = await challenges.create(request.body);
      if (!created) throw conflict(`a challenge with slug "${request.body.slug}" exists already; choose another slug`);
      return reply.status(201).send(await challengeView(ctx, created));
    });

    app.get('/challenges', { schema: { tags: ['challenges'], summary: 'List challenges' } }, async () => {
      return await Promise.all((await challenges.list()).map((c) => challengeView(ctx, c)));
    });

    app.get('/challenges/:slug', { schema: { tags: ['challenges'], summary: 'A challenge with its phase and counts', params: SlugParams } }, async (request) => {
      const c = await challenges.bySlug(request.params.slug);
      if (!c) throw notFound(`challenge "${request.params.slug}"`);
      return await challengeView(ctx, c);
    });

    app.patch(
      '/challenges/:slug',
      { schema: { tags: ['challenges'], summary: 'Change the phase or settings (organiser)', params: SlugParams, body: PatchBody } },
      async (request) => {
        requireAdmin(await ctx.auth.principal(request));
        const before = await challenges.bySlug(request.params.slug);
        if (!before) throw notFound(`challenge "${request.params.slug}"`);
        const after = (await challenges.update(request.params.slug, request.body))!;
        if (after.phase !== before.phase) {
          await ctx.dispatch.phaseChanged(after);
          request.log.info({ challenge: after.slug, from: before.phase, to: after.phase }, 'challenge phase changed');
        }
        return await challengeView(ctx, after);
      },
    );
  };
}
