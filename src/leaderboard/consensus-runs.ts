// The consensus scored as more runs (`?consensus=1` on the leaderboard), kind "C":
//   consensus-vote            weighted voting (weights 1, threshold 0.5) over every server
//                             registered for the task, per document
//   consensus-ensemble-v<N>   the latest trained ensemble of the task, if any
// Both go through the same online-run conversion as a server's answers, so they are
// scored exactly like an S row. Tasks whose family has no vote (COREF) have no consensus
// rows; the ensemble exists for the families that declare one (ranked lists). Note: an
// ensemble trained on this challenge's gold and scored against it is an optimistic
// figure; train on one challenge and score on another for a fair one.
import type { Challenge } from '../challenges/repository.ts';
import {
  challengeDocuments,
  ensembleDocuments,
  votedResults,
  type ChallengeDocument,
  type StoredAnswers,
} from '../consensus/challenge-runs.ts';
import type { EnsembleModelRepository, StoredModel } from '../consensus/model-repository.ts';
import { ensembleResult } from '../consensus/ensemble.ts';
import { familyOf, type AnswerResult, type TaskName } from '../families/registry.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import type { RunToScore } from './leaderboard.ts';
import { onlineRun, type OnlineAnswer } from './online-runs.ts';

const CONSENSUS_TEAM = 'consensus';

function asAnswers(task: TaskName, results: Array<{ doc: string; result: AnswerResult }>): OnlineAnswer[] {
  return results.flatMap((r) => (r.result[task] === undefined ? [] : [{ doc: r.doc, value: r.result[task] }]));
}

/** The consensus rows' runs over these documents (all of a challenge, or one page of them): the vote, and the ensemble when a model is given. */
export function consensusRunsOf(task: TaskName, docs: readonly ChallengeDocument[], model: StoredModel | null): RunToScore[] {
  const runs: RunToScore[] = [
    { run: 'consensus-vote', team: CONSENSUS_TEAM, kind: 'C', data: onlineRun(task, asAnswers(task, votedResults(docs))) },
  ];
  if (model) {
    const results = ensembleDocuments(docs).map((d) => ({ doc: d.id, result: ensembleResult(model.model, d) }));
    runs.push({
      run: `consensus-ensemble-v${model.version}`,
      team: CONSENSUS_TEAM,
      kind: 'C',
      data: onlineRun(task, asAnswers(task, results)),
    });
  }
  return runs;
}

/** The task's latest ensemble model, when its family has an ensemble and one was trained. */
export async function consensusModel(models: EnsembleModelRepository, challengeId: number, task: TaskName): Promise<StoredModel | null> {
  return familyOf(task).consensus?.ensemble ? await models.latest(challengeId, task) : null;
}

export async function consensusRuns(
  repos: { answers: StoredAnswers; models: EnsembleModelRepository },
  challenge: Challenge,
  task: TaskName,
  servers: AnnotationServer[],
  nameOf: (s: AnnotationServer) => string,
): Promise<RunToScore[]> {
  if (!familyOf(task).consensus) return [];
  const named = servers.filter((s) => s.tasks.includes(task)).map((s) => ({ serverId: s.id, run: nameOf(s) }));
  const docs = await challengeDocuments(repos.answers, challenge.id, named);
  return consensusRunsOf(task, docs, await consensusModel(repos.models, challenge.id, task));
}
