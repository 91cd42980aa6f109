import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireAdmin } from '../auth/principal.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
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
  {
    phase: Type.Optional(Type.Union([Type.Literal('setup'), Type.Literal('test'), Type.Literal('closed')])),
    reopen: Type.Optional(Type.Boolean({ description: 'true to move a closed challenge to another phase (a closed challenge is frozen until then)' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...Settings,
  },
  { additionalProperties: false },
);

export async function challengeView(ctx: AppContext, c: Challenge) {
  return { ...c, counts: await ctx.repos.challenges.counts(c.id) };
}

/** One challenge with its phase history (who changed the phase, when, from where). */
async function challengeDetail(ctx: AppContext, c: Challenge) {
  return { ...(await challengeView(ctx, c)), phaseHistory: await ctx.repos.challenges.phaseHistory(c.id) };
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
      return await challengeDetail(ctx, c);
    });

    app.patch(
      '/challenges/:slug',
      {
        schema: {
          tags: ['challenges'],
          summary: 'Change the phase or settings (organiser); a closed challenge changes phase only with "reopen": true. 202 when Redis is down: the change is stored and reaches the queues once it answers',
          params: SlugParams,
          body: PatchBody,
        },
      },
      async (request, reply) => {
        requireAdmin(await ctx.auth.principal(request));
        const before = await challenges.bySlug(request.params.slug);
        if (!before) throw notFound(`challenge "${request.params.slug}"`);
        const { phase, reopen, ...settings } = request.body;
        if (before.phase === 'closed' && phase !== undefined && phase !== 'closed' && reopen !== true) {
          throw new ApiError(409, 'closed', `challenge "${before.slug}" is closed; to reopen it, send {"phase": "${phase}", "reopen": true}`);
        }
        const after = await challenges.change(before.slug, settings, phase !== undefined ? { to: phase, by: 'organiser', address: request.ip } : undefined);
        if (!after) throw notFound(`challenge "${request.params.slug}"`);
        let queued = true;
        if (after.phase !== before.phase) {
          queued = await ctx.dispatch.phaseChanged(after);
          request.log.info({ challenge: after.slug, from: before.phase, to: after.phase, queued }, 'challenge phase changed');
        }
        const view = await challengeDetail(ctx, after);
        if (queued) return view;
        return reply.status(202).send({ ...view, notice: queuedLaterNotice('the new phase is stored') });
      },
    );
  };
}
