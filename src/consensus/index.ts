// Consensus over the answers of several servers: weighted voting (always available) and
// the trained maximum-entropy ensemble of BC II.5 §5.5 (when answers with a gold exist).

export {
  consensusAsResult,
  voteConsensus,
  type ActConsensus,
  type Consensus,
  type IntConsensusItem,
  type IptConsensusItem,
  type MentionConsensusItem,
  type RankedSupport,
  type ServerVote,
  type TaskVote,
  type VoteInput,
  type VoteOptions,
  type VoteSupport,
} from './voting.ts';
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
