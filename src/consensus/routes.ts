// Trained ensembles over HTTP: the organiser trains one from a challenge's stored answers
// and its loaded gold standard; every training is stored as a new version.
//   POST /challenges/:slug/ensembles/:task  (admin) {cutoff?, lambda?, runs?} → 201 the stored model
//   GET  /challenges/:slug/ensembles/:task  (organiser; teams once closed) → the versions
// Runs are the leaderboard's online run names (`T<team id>_S<n>`), one per server
// registered for the task; a model is applied to another challenge's article (say, a live
// one) by the same names there: the team's n-th server of that challenge.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { knownPrincipalOf } from '../auth/access.ts';
import type { Challenge } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { Described, Open, responses, TaskParams } from '../http/schemas.ts';
import type { TaskName } from '../families/registry.ts';
import type { GoldItems } from '../scoring/index.ts';
import { challengeDocuments, ensembleDocuments, type NamedServer } from './challenge-runs.ts';
import { ENSEMBLE_TASKS, ensembleOf, trainEnsemble, type EnsembleTask } from './ensemble.ts';
import type { StoredModel } from './model-repository.ts';

const TrainBody = Type.Object(
  {
    cutoff: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'selection and training cutoff per run (top k items); default 10' }),
    ),
    lambda: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e6, description: 'L2 strength; default 1' })),
    runs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 1000, uniqueItems: true })),
  },
  { additionalProperties: false },
);

const ModelSummary = Open({
  id: Type.Integer(),
  challenge: Described('the challenge id'),
  task: Type.String(),
  version: Type.Integer(),
  createdAt: Described('ISO 8601'),
  runs: Described('the run names combined'),
  cutoffs: Described('the cutoff of each run'),
  lambda: Type.Number(),
  training: Described('what it was trained on (documents, items) and how well it fits'),
});
const TrainedModel = Open({ ...ModelSummary.properties, model: Described('the whole stored model (weights per run)') });

/** The servers of a challenge registered for the task, named as leaderboard runs (their run names). */
async function namedServers(ctx: AppContext, challengeId: number, task: string): Promise<NamedServer[]> {
  const servers = await ctx.repos.servers.listByChallenge(challengeId);
  return servers.filter((s) => (s.tasks as string[]).includes(task)).map((s) => ({ serverId: s.id, run: s.runName }));
}

function modelSummary(m: StoredModel) {
  return {
    id: m.id,
    challenge: m.challenge,
    task: m.task,
    version: m.version,
    createdAt: m.createdAt,
    runs: m.model.runs,
    cutoffs: m.model.cutoffs,
    lambda: m.model.lambda,
    training: m.model.training,
  };
}

export function consensusRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { models } = ctx.repos;

    /** The challenge (challengeOf), and the task if ensembles are trained for it. */
    async function challengeTask(params: { slug: string; task: TaskName }): Promise<{ challenge: Challenge; task: EnsembleTask }> {
      const challenge = await challengeOf(ctx.repos.challenges, params);
      const { task } = params;
      if (!ENSEMBLE_TASKS.includes(task))
        throw new ApiError('unknown_task', `ensembles are trained for ${ENSEMBLE_TASKS.join(', ')} (ranked lists), not "${task}"`);
      return { challenge, task };
    }

    async function gold(challenge: Challenge, task: EnsembleTask): Promise<GoldItems> {
      const parsed = await ctx.leaderboard.storedGold(challenge, task);
      if (!parsed)
        throw new ApiError(
          'no_gold',
          `no ${task} gold standard is loaded for challenge "${challenge.slug}"; load it with PUT /api/challenges/${challenge.slug}/gold/${task} first`,
        );
      if (parsed.task !== task) throw new Error(`stored ${task} gold parsed as ${parsed.task}`);
      return ensembleOf(task).goldKeys(parsed.gold);
    }

    app.post(
      '/challenges/:slug/ensembles/:task',
      {
        schema: {
          tags: ['consensus'],
          summary: 'Train a new version of the ensemble from stored answers and the gold (organiser)',
          params: TaskParams,
          body: Type.Optional(TrainBody),
          response: responses({ 201: TrainedModel }),
        },
        config: { access: 'admin' },
      },
      async (request, reply) => {
        const { challenge, task } = await challengeTask(request.params);
        const body = request.body ?? {};
        const goldItems = await gold(challenge, task);
        const servers = await namedServers(ctx, challenge.id, task);
        const known = new Set(servers.map((s) => s.run));
        const unknown = (body.runs ?? []).filter((r) => !known.has(r));
        if (unknown.length > 0)
          throw badRequest(
            `unknown run(s) ${unknown.join(', ')}; the ${task} runs of "${challenge.slug}" are ${[...known].join(', ') || '(none)'}`,
          );
        const chosen = body.runs ? servers.filter((s) => body.runs!.includes(s.run)) : servers;
        if (chosen.length === 0) throw badRequest(`challenge "${challenge.slug}" has no server registered for ${task}: nothing to combine`);
        const docs = ensembleDocuments(await challengeDocuments(ctx.repos.answers, challenge.id, chosen));
        let model;
        try {
          model = trainEnsemble(docs, goldItems, { task, runs: chosen.map((s) => s.run), defaultCutoff: body.cutoff, lambda: body.lambda });
        } catch (error) {
          if (error instanceof RangeError) throw new ApiError('cannot_train', `the ensemble cannot be trained yet: ${error.message}`);
          throw error;
        }
        const stored = await models.add(challenge.id, task, model);
        request.log.info(
          { challenge: challenge.slug, task, version: stored.version, documents: model.training.documents },
          'ensemble trained',
        );
        return reply.status(201).send({ ...modelSummary(stored), model: stored.model });
      },
    );

    app.get(
      '/challenges/:slug/ensembles/:task',
      {
        schema: {
          tags: ['consensus'],
          summary: 'The trained ensemble versions of a task',
          params: TaskParams,
          response: responses({ 200: Open({ challenge: Type.String(), task: Type.String(), models: Type.Array(ModelSummary) }) }),
        },
        config: { access: 'participant' },
      },
      async (request) => {
        const principal = knownPrincipalOf(request);
        const { challenge, task } = await challengeTask(request.params);
        // A model holds every team's runs and the weights learned from the gold: like scores,
        // teams see it only once the challenge is closed.
        if (principal.role === 'team' && challenge.phase !== 'closed') {
          throw new ApiError('not_published', `the ensembles of "${challenge.slug}" are shown to teams once the challenge is closed`);
        }
        return { challenge: challenge.slug, task, models: (await models.list(challenge.id, task)).map(modelSummary) };
      },
    );
  };
}
