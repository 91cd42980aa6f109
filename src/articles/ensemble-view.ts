// The trained-ensemble consensus of one article: the model's runs are leaderboard run
// names (`T<team id>_S<n>`), matched to the article's challenge servers by the same rule,
// so a model trained on a challenge applies to live articles of the same teams' servers.
// Only the servers the caller may see contribute; a run with no shown answer counts as
// silent (all-zero features), as in training.
import { ensembleResult, type EnsembleTask } from '../consensus/index.ts';
import type { EnsembleModelRepository } from '../consensus/model-repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import { ApiError, notFound } from '../http/api-error.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { Article } from './repository.ts';
import type { ArticleServerState } from './status.ts';

/** The model, the servers that stood for its runs, and the ensemble's answer under the model's task. */
export type EnsembleView = {
  method: 'ensemble';
  model: { id: number; challenge: string; task: EnsembleTask; version: number };
  /** Run name → the server of this article's challenge that stands for it (absent: none). */
  runs: Record<string, number | null>;
} & AnswerResult;

/** The repositories it reads: the stored models, and the servers that stand for their runs. */
export interface EnsembleViewDeps {
  models: Pick<EnsembleModelRepository, 'byId'>;
  servers: Pick<ServerRepository, 'listByChallenge'>;
}

export async function ensembleView(
  deps: EnsembleViewDeps,
  article: Article,
  shown: readonly ArticleServerState[],
  modelId: number,
): Promise<EnsembleView> {
  const stored = await deps.models.byId(modelId);
  if (!stored) throw notFound(`ensemble model ${modelId}`);
  const servers = await deps.servers.listByChallenge(article.challengeId);
  const byName = new Map(servers.map((s) => [s.runName, s.id]));
  const answers = new Map(shown.flatMap((s) => (s.result ? [[s.serverId, s.result] as const] : [])));
  const runs: Record<string, AnswerResult | undefined> = {};
  const used: Record<string, number | null> = {};
  for (const run of stored.model.runs) {
    const serverId = byName.get(run);
    const result = serverId === undefined ? undefined : answers.get(serverId);
    used[run] = result ? serverId! : null;
    runs[run] = result;
  }
  if (Object.values(used).every((v) => v === null)) {
    throw new ApiError(
      'no_answers',
      `none of the servers of ensemble model ${modelId} (${stored.model.runs.join(', ')}) has an answer to this article that you may see`,
    );
  }
  const result = ensembleResult(stored.model, { id: article.id, runs });
  return {
    method: 'ensemble',
    model: { id: stored.id, challenge: stored.challenge, task: stored.task, version: stored.version },
    runs: used,
    ...result,
  };
}
