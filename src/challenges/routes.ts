import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { Described, ListOf, Open, responses, SlugParams, TaskListSchema } from '../http/schemas.ts';
import type { Challenge } from './repository.ts';
import { challengeOf } from './lookup.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

const Settings = {
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: 'Deadline of one attempt (default 600).' })),
  maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Tries per article and server (default 3).' })),
  retryDelaySeconds: Type.Optional(
    Type.Number({ minimum: 0, maximum: 600, description: 'Back-off before the 2nd try; doubles, capped at 10 minutes (default 30).' }),
  ),
  serversPerTeam: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  mentionTypes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200, uniqueItems: true })),
  relationTypes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 200,
      uniqueItems: true,
      description: "REL: the relation types servers may answer (empty: DrugProt's 13, INDIRECT-DOWNREGULATOR … PART-OF)",
    }),
  ),
  relationArguments: Type.Optional(
    Type.Object(
      {
        arg1: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true })),
        arg2: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true })),
      },
      {
        additionalProperties: false,
        description:
          'REL: the given entity types each argument may have, e.g. {"arg1": ["CHEMICAL"], "arg2": ["GENE-Y", "GENE-N"]} (absent: any)',
      },
    ),
  ),
  topicLabels: Type.Optional(
    // No comma, semicolon or TAB: the topic files separate labels with them.
    Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^,;\\t]+$' }), {
      maxItems: 200,
      uniqueItems: true,
      description: "TOPIC: the labels servers may answer, gold standards and runs hold (empty: LitCovid's seven, Treatment … Case Report)",
    }),
  ),
};

const CreateBody = Type.Object(
  { slug: SlugParams.properties.slug, name: Type.String({ minLength: 1, maxLength: 200 }), tasks: TaskListSchema, ...Settings },
  { additionalProperties: false },
);

const PatchBody = Type.Object(
  {
    phase: Type.Optional(Type.Union([Type.Literal('setup'), Type.Literal('test'), Type.Literal('closed')])),
    reopen: Type.Optional(
      Type.Boolean({ description: 'true to move a closed challenge to another phase (a closed challenge is frozen until then)' }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    leaderboardPublished: Type.Optional(
      Type.Boolean({
        description:
          'true: everyone may read the leaderboards, without a token (only once the challenge is closed; reopening withdraws it)',
      }),
    ),
    ...Settings,
  },
  { additionalProperties: false },
);

/** A challenge as the API shows it (challengeView). */
const ChallengeAnswer = Open({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  tasks: Type.Array(Type.String()),
  phase: Type.String({ description: 'setup, test or closed' }),
  timeoutSeconds: Type.Number(),
  maxAttempts: Type.Integer(),
  retryDelaySeconds: Type.Number(),
  serversPerTeam: Type.Integer(),
  mentionTypes: Type.Array(Type.String()),
  relationTypes: Type.Array(Type.String()),
  relationArguments: Open({ arg1: Type.Optional(Type.Array(Type.String())), arg2: Type.Optional(Type.Array(Type.String())) }),
  topicLabels: Type.Array(Type.String()),
  createdAt: Described('when it was created (ISO 8601)'),
  phaseChangedAt: Described('the latest phase change (ISO 8601), or null'),
  phaseChangedBy: Described('who made the latest phase change, or null'),
  leaderboardPublished: Type.Boolean({ description: 'the leaderboards are shown to everyone (set by the organiser once closed)' }),
  counts: Open({ articles: Type.Integer(), servers: Type.Integer(), teams: Type.Integer() }),
});
const ChallengeDetail = Open({
  ...ChallengeAnswer.properties,
  phaseHistory: ListOf({
    from: Type.String(),
    to: Type.String(),
    by: Type.String(),
    address: Described('the address the change came from, or null'),
    at: Described('ISO 8601'),
  }),
});
const ChangedChallenge = Open({
  ...ChallengeDetail.properties,
  notice: Type.Optional(Type.String({ description: 'with 202: what was left for later' })),
  publicationWithdrawn: Type.Optional(
    Type.Boolean({ description: "true when this change (reopening) withdrew the leaderboards' publication: publish again once closed" }),
  ),
});

async function challengeView(ctx: AppContext, c: Challenge) {
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

    app.post(
      '/challenges',
      {
        schema: {
          tags: ['challenges'],
          summary: 'Create a challenge (organiser)',
          body: CreateBody,
          response: responses({ 201: ChallengeAnswer }),
        },
        config: { access: 'admin' },
      },
      async (request, reply) => {
        const created = await challenges.create(request.body);
        if (!created) throw conflict(`a challenge with slug "${request.body.slug}" exists already; choose another slug`);
        reply.header('location', absoluteUrlOf(request, ctx.config, `/api/challenges/${encodeURIComponent(created.slug)}`));
        return reply.status(201).send(await challengeView(ctx, created));
      },
    );

    app.get(
      '/challenges',
      {
        schema: { tags: ['challenges'], summary: 'List challenges', response: responses({ 200: Type.Array(ChallengeAnswer) }) },
        config: { access: 'public' },
      },
      async () => {
        return await Promise.all((await challenges.list()).map((c) => challengeView(ctx, c)));
      },
    );

    app.get(
      '/challenges/:slug',
      {
        schema: {
          tags: ['challenges'],
          summary: 'A challenge with its phase and counts',
          params: SlugParams,
          response: responses({ 200: ChallengeDetail }),
        },
        config: { access: 'public' },
      },
      async (request) => {
        const c = await challengeOf(challenges, request.params);
        return await challengeDetail(ctx, c);
      },
    );

    app.patch(
      '/challenges/:slug',
      {
        schema: {
          tags: ['challenges'],
          summary:
            'Change the phase or settings (organiser); a closed challenge changes phase only with "reopen": true; {"leaderboardPublished": true} once closed shows its leaderboards to everyone. 202 when Redis is down: the change is stored and reaches the queues once it answers',
          params: SlugParams,
          body: PatchBody,
          response: responses({ 200: ChangedChallenge, 202: ChangedChallenge }),
        },
        config: { access: 'admin' },
      },
      async (request, reply) => {
        const before = await challengeOf(challenges, request.params);
        const { phase, reopen, ...settings } = request.body;
        if (before.phase === 'closed' && phase !== undefined && phase !== 'closed' && reopen !== true) {
          throw new ApiError('closed', `challenge "${before.slug}" is closed; to reopen it, send {"phase": "${phase}", "reopen": true}`);
        }
        const closedAfter = (phase ?? before.phase) === 'closed';
        if (settings.leaderboardPublished === true && !closedAfter) {
          throw new ApiError(
            'not_closed',
            `leaderboards are published once the challenge is closed; "${before.slug}" is in phase "${phase ?? before.phase}": close it first (PATCH {"phase": "closed"})`,
          );
        }
        // Reopening withdraws a publication: the answers may change until the next close. The
        // answer says so (publicationWithdrawn), so the organiser is never left unaware.
        const withdrawn = !closedAfter && before.leaderboardPublished;
        if (withdrawn) settings.leaderboardPublished = false;
        const after = await challenges.change(
          before.slug,
          settings,
          phase !== undefined ? { to: phase, by: 'organiser', address: request.ip } : undefined,
        );
        if (!after) throw notFound(`challenge "${request.params.slug}"`);
        let queued = true;
        if (after.phase !== before.phase) {
          queued = await ctx.dispatch.phaseChanged(after);
          request.log.info({ challenge: after.slug, from: before.phase, to: after.phase, queued }, 'challenge phase changed');
        }
        const view = { ...(await challengeDetail(ctx, after)), ...(withdrawn ? { publicationWithdrawn: true } : {}) };
        if (queued) return view;
        return reply.status(202).send({ ...view, notice: queuedLaterNotice('the new phase is stored') });
      },
    );
  };
}
