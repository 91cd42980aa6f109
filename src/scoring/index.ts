// The scoring engine's public API: pure functions over parsed inputs, and parsers that
// take file contents as strings (the caller does the I/O).

export { ScoringInputError, type ScoringInputErrorPlace } from './errors.ts';
export {
  aucFromCurve,
  aucIPR,
  f1,
  fBeta,
  mcc,
  mean,
  populationSd,
  precisionAtFullRecall,
  prfFromCounts,
  safeRatio,
  type PrPoint,
  type Prf,
} from './metrics.ts';
export { compareIds, orderActEntries, orderRankedKeys } from './ranking.ts';
export {
  COLUMN_LAYOUTS,
  orderModeOf,
  unorderedPairKey,
  pairOf,
  type ActEntry,
  type ActGold,
  type ColumnLayout,
  type GoldItems,
  type HomonymOrthologMap,
  type OrderMode,
  type OrganismMap,
  type Parsed,
  type RankedEntry,
  type RankedRun,
} from './types.ts';
export {
  ACCESSION_LAYOUT,
  PAIR_LAYOUT,
  parseActGold,
  parseActLabel,
  parseActRun,
  parseHomonymOrthologMap,
  parseIntGold,
  parseIntRun,
  parseIptGold,
  parseIptRun,
  parseOrganismMap,
  parseRankedGold,
  parseRankedRun,
  type RankedLayout,
  type RunParseOptions,
} from './bc2-input.ts';
export { forEachLine, parseConfidence, parseRank } from './tsv-lines.ts';
export { scoreActRanking, scoreActRun, type ActRankingScore, type ActScore } from './act.ts';
export { filterByOrganism, mapHomonymOrthologs } from './postprocess.ts';
export { prepareRankedLists, scoreRankedRun, type DocumentScore, type RankedRunScore, type RankedScoreOptions } from './int-ipt.ts';
export {
  MATCH_CRITERIA,
  addMentionTally,
  duplicateMentionWarnings,
  emptyMentionTally,
  mentionDocumentCounts,
  mentionScoreOf,
  repeatedMentions,
  scoreMentions,
  tallyMentions,
  type CriteriaCounts,
  type MatchCriterion,
  type Mention,
  type MentionCounts,
  type MentionScore,
  type MentionScoreOptions,
  type MentionTally,
  type RepeatedMention,
} from './mention.ts';
export { runCountsOf, type DocumentCounts, type Interval, type RunCounts } from './significance.ts';
export { ALL_PAIRS_LIMIT, boardSignificance, SIGNIFICANCE_LEVEL, type BoardSignificance, type PairP } from './significance-board.ts';
export { checkBioAlignment, parseBio, parseBratMentions, type BioDocument, type BioParseOptions } from './mention-input.ts';
export { parseA1, parseA2, type CorefAnnotation, type CorefLinkRecord, type Expression, type Protein, type Span } from './coref-input.ts';
export {
  ANAPHOR_TYPES,
  anaphorType,
  expressionMatches,
  proteinLinks,
  scoreCoref,
  type AnaphorType,
  type CorefCounts,
  type CorefDocumentInput,
  type CorefScore,
  type DropCounts,
} from './coref.ts';
export { DROP_REASONS, type DropReason, type DroppedLink } from './coref-links.ts';
export { classificationRunTsv, rankedRunTsv } from './run-tsv.ts';
export {
  flattenMetrics,
  formatReport,
  formatText,
  formatTsv,
  REPORT_FORMATS,
  type ReportFormat,
  type ReportRun,
  type ScoreReport,
} from './report.ts';
export { parsePmids, parseRelEntities, parseRelRelations, type RelEntity, type RelRelation } from './rel-input.ts';
export {
  DRUGPROT_CHEMICAL,
  DRUGPROT_GENE,
  DRUGPROT_GENE_SUBTYPES,
  pairingTypes,
  DRUGPROT_RELATION_TYPES,
  emptyRelNotes,
  scoreRelations,
  type RelCounts,
  type RelReadNotes,
  type RelScore,
  type RelScoreInput,
} from './rel.ts';
export {
  BIORED_SETTINGS,
  bioredKey,
  cidConceptId,
  cidKey,
  countSets,
  orderedPair,
  readCidBioc,
  readCidPubTator,
  scoreBiored,
  scoreCid,
  type BioredScore,
  type BioredSetting,
  type CidBiocRecord,
  type CidRelation,
  type ConceptRelation,
  type RelationCounts,
} from './concept-relations.ts';
