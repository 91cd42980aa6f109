// Consensus.*: BC-VisCon's consensus methods over the stored answers of one article, on
// the project's own consensus code (src/consensus/ through the article views):
//   vote                  weighted majority voting, always available;
//   ensemble:<slug>:<T>   the latest trained maximum-entropy ensemble (BC II.5 §5.5) of a
//                         challenge's task (a ranked list: INT, IPT, …), listed once the challenge is closed —
//                         as teams see the models only then.
// A result struct has the keys of an answer (answerToWire); item confidences are the
// consensus confidences (the voting share, the ensemble's probability). A method with no
// result for the article (fewer than two chosen servers answered; none of the ensemble's
// servers answered) gives an empty struct.
import { voteView } from '../articles/consensus.ts';
import { ensembleView, type EnsembleViewDeps } from '../articles/ensemble-view.ts';
import type { Article } from '../articles/repository.ts';
import type { ArticleServerState } from '../articles/status.ts';
import { hasClosed, type ChallengeRepository } from '../challenges/repository.ts';
import type { EnsembleModelRepository } from '../consensus/model-repository.ts';
import { consensusAsResult } from '../consensus/index.ts';
import { ENSEMBLE_TASKS } from '../consensus/ensemble.ts';
import { ApiError } from '../http/api-error.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { EncodableValue } from '../xmlrpc/codec.ts';
import type { AnnotationRepositories } from './annotations.ts';
import { servedArticle } from './articles.ts';
import { readConsensusOptions, type ConsensusOptions } from './consensus-options.ts';
import { Fault, FAULT } from './faults.ts';
import type { BcmsMethod } from './method.ts';
import { answerToWire } from './wire.ts';

/**
 * What the Consensus.* methods read: the served article and its answers, the closed
 * challenges and their latest models, and what the article view's ensemble consensus reads
 * (articles/ensemble-view.ts: a model by id, the servers of the article's challenge).
 */
export interface ConsensusDeps extends AnnotationRepositories, EnsembleViewDeps {
  challenges: Pick<ChallengeRepository, 'bySlug' | 'list'>;
  models: Pick<EnsembleModelRepository, 'latest' | 'byId'>;
}

export interface ConsensusMethod {
  id: string;
  provider: string;
  method: string;
  name: string;
  /** The stored ensemble model a method applies. */
  modelId?: number;
}

const PROVIDER = 'metaserver';
const VOTE: ConsensusMethod = {
  id: 'vote',
  provider: PROVIDER,
  method: 'weighted majority voting',
  name: "Weighted voting over the servers' answers (options: servers, weights, threshold)",
};

async function consensusMethods(deps: ConsensusDeps): Promise<ConsensusMethod[]> {
  const models = deps.models;
  const methods = [VOTE];
  for (const challenge of await deps.challenges.list()) {
    if (!hasClosed(challenge)) continue;
    for (const task of ENSEMBLE_TASKS) {
      if (!challenge.tasks.includes(task)) continue;
      const model = await models.latest(challenge.id, task);
      if (!model) continue;
      methods.push({
        id: `ensemble:${challenge.slug}:${task}`,
        provider: PROVIDER,
        method: 'maximum-entropy ensemble (BioCreative II.5)',
        name: `Ensemble trained on "${challenge.name}" for ${task}, version ${model.version} (options: servers)`,
        modelId: model.id,
      });
    }
  }
  return methods;
}

const describe = (m: ConsensusMethod) => ({ provider: m.provider, method: m.method, name: m.name, id: m.id });

function unknownMethod(id: string, known: ConsensusMethod[]): Fault {
  return new Fault(
    FAULT.unknownConsensusMethod,
    `unknown consensus method "${id}"; Consensus.getConsensusMethods() lists them: ${known.map((m) => m.id).join(', ')}`,
  );
}

export function consensusMethodsApi(deps: ConsensusDeps): BcmsMethod[] {
  const list: BcmsMethod = {
    name: 'Consensus.getConsensusMethods',
    usage: 'Consensus.getConsensusMethods() → array of string',
    signatures: [['array']],
    help: 'The ids of the consensus methods: "vote" (weighted majority voting) and "ensemble:<challenge>:<task>" for each trained ensemble of a closed challenge.',
    async run() {
      return (await consensusMethods(deps)).map((m) => m.id);
    },
  };
  const one: BcmsMethod = {
    name: 'Consensus.getConsensusMethod',
    usage: 'Consensus.getConsensusMethod(id: string) → struct',
    signatures: [['struct', 'string']],
    help: 'One consensus method: {provider, method, name, id}.',
    async run([id]) {
      if (typeof id !== 'string') throw new Fault(FAULT.badParams, `the method id is a string: send ${one.usage}`);
      const known = await consensusMethods(deps);
      const method = known.find((m) => m.id === id);
      if (!method) throw unknownMethod(id, known);
      return describe(method);
    },
  };
  const consensus: BcmsMethod = {
    name: 'Consensus.getConsensus',
    usage:
      'Consensus.getConsensus(article: int|string [, {servers: [int], methods: [string], weights: struct server id → int, threshold: int percent}]) → struct',
    signatures: [
      ['struct', 'int'],
      ['struct', 'string'],
      ['struct', 'int', 'struct'],
      ['struct', 'string', 'struct'],
    ],
    help:
      'The consensus of the stored answers to the article: a struct of method id → result struct, with the keys of ' +
      'Annotations.getAnnotation (confidences are the consensus confidences); an empty struct where a method has no result. ' +
      'Options: servers (default: all the article was sent to), methods (default: all), weights (server id → weight, default 1; ' +
      'voting only), threshold (percent of the total weight an item needs, default 50; voting only).',
    async run([ref, optionsParam]) {
      const article = await servedArticle(deps, ref, consensus.usage);
      const options = readConsensusOptions(optionsParam, consensus.usage);
      const known = await consensusMethods(deps);
      const chosen = (options.methods ?? known.map((m) => m.id)).map((id) => {
        const method = known.find((m) => m.id === id);
        if (!method) throw unknownMethod(id, known);
        return method;
      });
      const shown = chosenServers(await deps.answers.serverStates(article.id), options);
      const results: Record<string, EncodableValue> = {};
      for (const method of chosen) {
        const result = await methodResult(deps, article, shown, method, options);
        results[method.id] = result ? answerToWire(result) : {};
      }
      return results;
    },
  };
  return [list, one, consensus];
}

/** The answers of the servers the options choose (all the article was sent to by default); naming another is a fault. */
function chosenServers(states: ArticleServerState[], options: ConsensusOptions): ArticleServerState[] {
  for (const id of options.servers ?? []) {
    if (!states.some((s) => s.serverId === id)) {
      throw new Fault(
        FAULT.unknownServer,
        `servers: the article was not sent to server ${id}; Annotations.getAnnotationServerList(article) lists the servers it was sent to`,
      );
    }
  }
  return options.servers ? states.filter((s) => options.servers!.includes(s.serverId)) : states;
}

/** One consensus method's result over the chosen answers: weighted voting, or a stored ensemble model. */
async function methodResult(
  deps: ConsensusDeps,
  article: Article,
  shown: ArticleServerState[],
  method: ConsensusMethod,
  options: ConsensusOptions,
): Promise<AnswerResult | undefined> {
  if (method.modelId !== undefined) return await ensembleResult(deps, article, shown, method.modelId);
  const vote = voteView(shown, { weights: options.weights, threshold: options.threshold });
  return vote && consensusAsResult(vote);
}

async function ensembleResult(
  deps: ConsensusDeps,
  article: Article,
  shown: ArticleServerState[],
  modelId: number,
): Promise<AnswerResult | undefined> {
  try {
    const { method: _method, model: _model, runs: _runs, ...result } = await ensembleView(deps, article, shown, modelId);
    return result;
  } catch (err) {
    // 409: none of the ensemble's servers answered this article: no result, not an error.
    if (err instanceof ApiError && err.statusCode === 409) return undefined;
    throw err;
  }
}
