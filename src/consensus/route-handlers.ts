// What the trained ensembles' routes do (routes.ts registers them, route-schemas.ts types
// them): train a new version from a challenge's stored answers and its gold, and list the
// versions. The training itself is ensemble.ts; the runs are challenge-runs.ts.
import { knownPrincipalOf } from '../auth/access.ts';
import { hasClosed, type Challenge, type ChallengeRepository } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { TaskName } from '../families/registry.ts';
import type { GoldItems } from '../scoring/index.ts';
import type { ServerRepository } from '../servers/repository.ts';
import { challengeDocuments, ensembleDocuments, type NamedServer, type StoredAnswers } from './challenge-runs.ts';
import { ENSEMBLE_TASKS, ensembleOf, trainEnsemble, type EnsembleTask } from './ensemble.ts';
import type { EnsembleModelRepository, StoredModel } from './model-repository.ts';
import type * as S from './route-schemas.ts';

/** What the ensembles' routes need, handed over by the composition root. */
export interface EnsembleRouteDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  servers: Pick<ServerRepository, 'listByChallenge'>;
  answers: StoredAnswers;
  models: Pick<EnsembleModelRepository, 'add' | 'list'>;
  leaderboard: StoredGold;
}

/** Where the loaded gold comes from (the leaderboard's service; named by shape, as leaderboard/ reads this folder). */
interface StoredGold {
  storedGold(challenge: Challenge, task: TaskName): Promise<{ task: TaskName; gold: unknown } | null>;
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

export class EnsembleHandlers {
  constructor(private readonly deps: EnsembleRouteDeps) {}

  /** The servers of a challenge registered for the task, named as leaderboard runs (their run names). */
  private async namedServers(challengeId: number, task: string): Promise<NamedServer[]> {
    const servers = await this.deps.servers.listByChallenge(challengeId);
    return servers.filter((s) => (s.tasks as string[]).includes(task)).map((s) => ({ serverId: s.id, run: s.runName }));
  }

  /** The challenge (challengeOf), and the task if ensembles are trained for it. */
  private async challengeTask(params: { slug: string; task: TaskName }): Promise<{ challenge: Challenge; task: EnsembleTask }> {
    const challenge = await challengeOf(this.deps.challenges, params);
    const { task } = params;
    if (!ENSEMBLE_TASKS.includes(task))
      throw new ApiError('unknown_task', `ensembles are trained for ${ENSEMBLE_TASKS.join(', ')} (ranked lists), not "${task}"`);
    return { challenge, task };
  }

  private async gold(challenge: Challenge, task: EnsembleTask): Promise<GoldItems> {
    const parsed = await this.deps.leaderboard.storedGold(challenge, task);
    if (!parsed)
      throw new ApiError(
        'no_gold',
        `no ${task} gold standard is loaded for challenge "${challenge.slug}"; load it with PUT /api/challenges/${challenge.slug}/gold/${task} first`,
      );
    if (parsed.task !== task) throw new Error(`stored ${task} gold parsed as ${parsed.task}`);
    return ensembleOf(task).goldKeys(parsed.gold);
  }

  /** The runs asked for (all the task's runs by default); an unknown run is refused, naming the known ones. */
  private async chosenServers(challenge: Challenge, task: EnsembleTask, runs: string[] | undefined): Promise<NamedServer[]> {
    const servers = await this.namedServers(challenge.id, task);
    const known = new Set(servers.map((s) => s.run));
    const unknown = (runs ?? []).filter((r) => !known.has(r));
    if (unknown.length > 0)
      throw badRequest(
        `unknown run(s) ${unknown.join(', ')}; the ${task} runs of "${challenge.slug}" are ${[...known].join(', ') || '(none)'}`,
      );
    const chosen = runs ? servers.filter((s) => runs.includes(s.run)) : servers;
    if (chosen.length === 0) throw badRequest(`challenge "${challenge.slug}" has no server registered for ${task}: nothing to combine`);
    return chosen;
  }

  readonly train: RouteHandler<typeof S.TrainEnsemble> = async (request, reply) => {
    const { challenge, task } = await this.challengeTask(request.params);
    const body = request.body ?? {};
    const goldItems = await this.gold(challenge, task);
    const chosen = await this.chosenServers(challenge, task, body.runs);
    const docs = ensembleDocuments(await challengeDocuments(this.deps.answers, challenge.id, chosen));
    let model;
    try {
      model = trainEnsemble(docs, goldItems, { task, runs: chosen.map((s) => s.run), defaultCutoff: body.cutoff, lambda: body.lambda });
    } catch (error) {
      if (error instanceof RangeError) throw new ApiError('cannot_train', `the ensemble cannot be trained yet: ${error.message}`);
      throw error;
    }
    const stored = await this.deps.models.add(challenge.id, task, model);
    request.log.info({ challenge: challenge.slug, task, version: stored.version, documents: model.training.documents }, 'ensemble trained');
    return reply.status(201).send({ ...modelSummary(stored), model: stored.model });
  };

  readonly versions: RouteHandler<typeof S.EnsembleVersions> = async (request) => {
    const principal = knownPrincipalOf(request);
    const { challenge, task } = await this.challengeTask(request.params);
    // A model holds every team's runs and the weights learned from the gold: like scores,
    // teams see it only once the challenge is closed.
    if (principal.role === 'team' && !hasClosed(challenge)) {
      throw new ApiError('not_published', `the ensembles of "${challenge.slug}" are shown to teams once the challenge is closed`);
    }
    return { challenge: challenge.slug, task, models: (await this.deps.models.list(challenge.id, task)).map(modelSummary) };
  };
}
