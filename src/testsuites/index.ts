// Public API of feature-based test suites: catalogues, features, queries, generation,
// reports. Pure functions, except the loaders that read files (catalogue-io, suite-files).

export type {
  Catalogue,
  Entity,
  FeatureValue,
  Features,
  GeneratedItem,
  NameOrSymbol,
  Sentence,
  SlotFeatures,
  SlotPosition,
} from './types.ts';
export { caseClass, caseValues, entityFeatures, greekSpans, guessKind, romanSpans, sourceDb } from './features.ts';
export { containsCommonWord, entityMorphology, hasGenitive, hasPlural } from './morphology.ts';
export { sentenceFeatures, slotFeatures, LIST_CONTEXTS, type ListContext } from './sentence-features.ts';
export { FEATURE_SPECS, SPEC_BY_KEY, keysOfScope, valuesOf, type FeatureSpec } from './feature-specs.ts';
export { parseRecords, writeRecords, RecordFormatError } from './record-format.ts';
export {
  CatalogueError,
  entitiesFromRecords,
  entitiesToRecords,
  makeEntity,
  makeSentence,
  sentencesFromRecords,
  sentencesToRecords,
  type EntityInput,
  type SentenceInput,
} from './catalogue.ts';
export { catalogueFromJson, catalogueToJson, loadBuiltInCatalogue, parseEntities, parseSentences } from './catalogue-io.ts';
export { compileQuery, evaluate, parseQuery, QuerySyntaxError, type QueryNode } from './query.ts';
export { fillFrame, generateSuite, selectEntities, selectSentences, type GeneratedSuite, type GenerateOptions } from './generate.ts';
export { parseGpMarkup, fillSlots } from './markup.ts';
export { buildReport, formatReportJson, formatReportTsv, type ClassScore, type ReportOptions, type SuiteReport } from './report.ts';
export { readAnswers, readSuite, suiteFiles, SuiteFileError } from './suite-files.ts';
