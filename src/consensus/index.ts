// Consensus over the answers of several servers: weighted voting (always available) and
// the trained maximum-entropy ensemble of BC II.5 §5.5 (when answers with a gold exist).

export { consensusAsResult, voteConsensus, type Consensus, type VoteInput, type VoteOptions } from './voting.ts';
export {
  meanOf,
  passes,
  rankedVote,
  tally,
  type RankedSupport,
  type ServerVote,
  type TaskVote,
  type VoteSupport,
} from '../scoring/vote-tally.ts';
export {
  applyEnsemble,
  ENSEMBLE_FORMAT,
  ENSEMBLE_VERSION,
  ensembleResult,
  FEATURES_PER_RUN,
  parseEnsemble,
  serializeEnsemble,
  trainEnsemble,
  type EnsembleDocument,
  type EnsembleItem,
  type EnsembleModel,
  type EnsembleOptions,
  type EnsembleTask,
} from './ensemble.ts';
export { predictLogistic, sigmoid, trainLogistic, type LogisticFit, type LogisticOptions } from './logistic.ts';
