// A task family is everything that differs between tasks, in one definition: its names,
// how its answers are validated, stored, counted, scored, voted on, exported and shown.
// Every consumer (dispatch, leaderboard, CLI, public API, consensus, exports, web pages,
// the database's list of task names) iterates the registry (registry.ts) instead of
// switching on a task name. The pieces are grouped by consumer; each group's comment says
// who reads it. Members are methods, so a family's own types stay precise inside its
// folder while the registry holds them side by side.

import type { ColumnLayout, DocumentCounts, DroppedLink, HomonymOrthologMap, OrganismMap, ScoreReport } from '../scoring/index.ts';
import type { Report } from '../tasks/checks.ts';
import type { CodePointText } from '../shared/code-points.ts';
import type { FamilySetting } from '../tasks/names.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import type { EncodableValue } from '../xmlrpc/codec.ts';
import type { BiocTaskCodec } from '../formats/bioc-model.ts';
import type { CorpusDocument } from '../formats/bioc-corpus.ts';
import type { ArticleSection } from '../formats/common.ts';
import type { NamespaceRules } from '../tasks/concept-ids.ts';
import type { ScoreFileFormat, ScoreFiles, ScoreFlag, ScoreFlags } from '../scoring/score-files.ts';

// ── validation ─────────────────────────────────────────────────────────────────────────

/** What a validator gets besides the value: the call (tasks asked, text as sent, …). */
export interface ValidationContext {
  /** Tasks asked of this server. */
  tasks: readonly string[];
  /** The article text exactly as sent (offsets in answers count its Unicode code points). */
  text: string;
  /** Given annotations sent with the text (COREF's proteins), if any. */
  given?: string;
  /** The challenge's declared mention types (empty or absent: any). */
  mentionTypes?: string[];
  /** REL: the challenge's relation types (empty or absent: DrugProt's 13). */
  relationTypes?: string[];
  /** REL: the entity types allowed as each argument (absent: any given entity). */
  relationArguments?: { arg1?: string[]; arg2?: string[] };
  /** TOPIC: the challenge's label set (empty or absent: LitCovid's seven). */
  topicLabels?: readonly string[];
  /** MENTION: the namespaces each entity type's concept ids may have (`*`: other types; empty or absent: any). */
  mentionNamespaces?: NamespaceRules;
  /** CREL: the challenge's relation types between concepts (empty or absent: BioRED's eight and CID). */
  conceptRelationTypes?: readonly string[];
  /** The loaded UniProt release; null: accession patterns only. */
  accessions: AccessionLookup | null;
  /** Each family's loaded release index (its `lookup`), by task name; absent: none. */
  lookups?: FamilyLookups;
}

/**
 * What a challenge tells validation about its tasks: its mention types, REL's relation and
 * argument types, TOPIC's labels. One named part of the context, picked from a challenge by
 * `challengeRules`, so a new per-challenge setting reaches dispatch, the pull protocol and
 * the setup check by being added here and there, not in each of them.
 */
export type ChallengeRules = Pick<
  ValidationContext,
  'mentionTypes' | 'relationTypes' | 'relationArguments' | 'topicLabels' | 'mentionNamespaces' | 'conceptRelationTypes'
>;

/** The challenge's rules for validation (a challenge row, or anything that has them). */
export function challengeRules(challenge: ChallengeRules): ChallengeRules {
  const { mentionTypes, relationTypes, relationArguments, topicLabels, mentionNamespaces, conceptRelationTypes } = challenge;
  return { mentionTypes, relationTypes, relationArguments, topicLabels, mentionNamespaces, conceptRelationTypes };
}

/** Loaded indexes by task name, as `loadFamilyLookups` builds them at start. */
export type FamilyLookups = Readonly<Record<string, unknown>>;

export interface TaskInput extends ValidationContext {
  /** The text prepared once per answer for code-point offsets. */
  codePoints: CodePointText;
  /**
   * The validated results of the answer's other keys, by answer key, that had no error:
   * those a family `reads` are validated before it (CREL reads `mentions`).
   */
  answered?: Readonly<Record<string, unknown>>;
}

/**
 * A release index a family validates against (as INT and IPT use the UniProt release),
 * named by a setting of its own and loaded once at start.
 */
export interface FamilyLookup<L> {
  /** The setting that names the index file (a key of the family's `settings`). */
  setting: string;
  load(path: string): L;
  /** For the start-up log line and the health answer: the release's name. */
  release(index: L): string;
  /** Logged at start when no index is configured: what is checked instead. */
  without: string;
}

/** A setting a family adds to the configuration (declared in src/tasks/names.ts, which configuration reads). */
export type { FamilySetting } from '../tasks/names.ts';

/** A `metaserver <name> …` command a family adds; `run` loads its code only when used. */
export interface FamilyCommand {
  name: string;
  description: string;
  run(argv: string[]): Promise<number>;
}

/** How many annotations one stored result holds (reliability figures), counted in SQL. */
export type ItemCounting = { count: 'one' } | { count: 'items'; in?: readonly string[] };

// ── scoring and the leaderboard ────────────────────────────────────────────────────────

/** Options of a leaderboard request; a family names those that apply to it. */
export type ScoreOption = 'all' | 'cutoff' | 'beta' | 'ho' | 'of' | 'singleClass';

/** What scoring options mean once read (maps parsed). */
export interface ScoreSettings {
  cutoff?: number;
  all?: boolean;
  beta?: number;
  orthologMap?: HomonymOrthologMap;
  organismMap?: OrganismMap;
  /** Named in organism-map errors. */
  organismMapFile?: string;
  singleClass?: boolean;
}

/**
 * What reading a challenge's gold standards and runs may depend on besides the body: the
 * challenge's settings (TOPIC: its label set). Absent outside a challenge (`metaserver score`).
 */
export interface UploadContext {
  topicLabels?: readonly string[];
  /** MENTION: the namespaces of bare accessions in a corpus, by entity type (the challenge's first accepted one). */
  mentionNamespaces?: NamespaceRules;
}

export interface ParsedGold<G> {
  gold: G;
  documents: number;
  items: number;
  warnings: string[];
}

/** One stored answer's part for the task, with the article's organiser id. */
export interface OnlineAnswer {
  doc: string;
  value: unknown;
}

/** The figures of one run (and, where a family reports them, the links not scored). */
export interface ScoredRun {
  metrics: Record<string, unknown>;
  droppedLinks?: DroppedLink[];
}

/** How `metaserver score <TASK>` reads the family's gold and runs. */
export interface FamilyScoreCli {
  /** Flags that apply besides --gold and --format (the others are refused). */
  flags: readonly ScoreFlag[];
  /** Help text of the runs argument for this family. */
  runs: string;
  /** Every file format this scorer reads, gold and runs (the help lists them; a test reads each). */
  reads: readonly ScoreFileFormat[];
  /** Checks flags this family cannot do without; throws a usage error. */
  check?(o: ScoreFlags): void;
  score(runs: string[], o: ScoreFlags, files: ScoreFiles): Promise<ScoreReport['runs']>;
}

/**
 * Gold standards and runs read from a corpus as the field ships it (BioC, PubTator): the
 * documents' annotations become the family's own upload body, which is then read, checked
 * and stored like any upload of that form.
 */
export interface FamilyCorpus {
  /** Which annotations are taken, in words (help texts, README). */
  takes: string;
  gold(documents: readonly CorpusDocument[], context?: UploadContext): CorpusConversion;
  /** Offline runs the same way; absent: runs are uploaded in the family's own form only. */
  run?(documents: readonly CorpusDocument[], context?: UploadContext): CorpusConversion;
}

/**
 * A corpus turned into the family's upload body; `failures`: documents whose annotations are
 * written wrong for the family (MENTION: an id column such as `D001943|`), which refuse the
 * upload, each named with the reason.
 */
export interface CorpusConversion {
  body: unknown;
  warnings: string[];
  failures?: Array<{ document: string; reason: string }>;
}

/** A family's per-document counts (FamilyScoring's `documentCounts`). */
export interface DocumentCountsOf<G, Run> {
  /** Where the figures the counts give are among the metrics: `strict` → strict.p, strict.r, strict.f. */
  figures: string;
  /** The run's counts in each gold document (its documents outside the gold are not scored; a gold document it misses counts its gold items). */
  count(gold: G, run: Run, settings: ScoreSettings): Map<string, DocumentCounts>;
}

export interface FamilyScoring<G, Run> {
  /** The figure leaderboards sort by (a flattened metric name: `macro.f`). */
  mainFigure: string;
  /** Leaderboard request options that apply; the others are refused. */
  options: readonly ScoreOption[];
  /** How gold standards and offline runs are sent and stored: tab-separated text or JSON. */
  upload: 'tsv' | 'json';
  /** The upload's form, for help texts ("docid<TAB>taxid"). */
  goldForm: string;
  parseGold(body: unknown, context?: UploadContext): ParsedGold<G>;
  goldDocuments(gold: G): Iterable<string>;
  /**
   * The gold standard without the documents named (the challenge's background articles,
   * which the leaderboards do not score); a new value, the given one unchanged. Scoring
   * already ignores a run's documents outside the gold, so runs need no such step.
   */
  withoutDocuments(gold: G, documents: ReadonlySet<string>): G;
  parseRun(body: unknown, columns: ColumnLayout, context?: UploadContext): { run: Run; warnings: string[] };
  /** A server's stored answers (organiser-id order) as a run. */
  onlineRun(answers: readonly OnlineAnswer[]): Run;
  score(gold: G, run: Run, settings: ScoreSettings): ScoredRun;
  /**
   * Each document's counts of the main figures (a micro P/R/F), for a leaderboard's
   * significance (`src/scoring/significance.ts`: bootstrap intervals, approximate
   * randomization); absent: the figures are not sums over documents, and the leaderboard
   * refuses `significance=1` for the family.
   */
  documentCounts?: DocumentCountsOf<G, Run>;
  /** An online run as a tab-separated result file the official scorer reads; absent: none. */
  exportTsv?(run: Run): string;
  cli: FamilyScoreCli;
  /**
   * Other scorers of the family's data, by the name `metaserver score NAME` takes (MENTION:
   * NORM, BC5CDR's and NLM-Chem's normalization figures; CREL: CID, BC5CDR's relations).
   */
  scorers?: Readonly<Record<string, FamilyScoreCli>>;
  /** Gold (and runs) from BioC / PubTator annotations; absent: not from a corpus. */
  corpus?: FamilyCorpus;
}

// ── consensus ──────────────────────────────────────────────────────────────────────────

/** One chosen server's answer for the task, with its weight (> 0). */
export interface WeightedAnswer<R> {
  serverId: number;
  weight: number;
  result: R;
}

/** An item of a ranked list as the trained ensemble sees it. */
export interface EnsembleCandidate {
  key: string;
  rank: number;
  confidence?: number;
}

export interface FamilyEnsemble<R, G> {
  items(result: R): EnsembleCandidate[];
  asResult(items: ReadonlyArray<{ key: string; rank: number; probability: number }>): R;
  /** The gold standard as document → item keys. */
  goldKeys(gold: G): Map<string, string[]>;
}

export interface FamilyConsensus<R, G, V> {
  /** Weighted voting over the answers (at least minServers of them). */
  vote(answers: ReadonlyArray<WeightedAnswer<R>>, threshold: number): V;
  /** The vote as a plain result (items' share as confidence), to store, export or score. */
  asResult(vote: V): R;
  /** The trained maximum-entropy ensemble (BC II.5 §5.5); ranked lists only. */
  ensemble?: FamilyEnsemble<R, G>;
}

// ── exports ────────────────────────────────────────────────────────────────────────────

export type ExportFormatName = 'tsv' | 'bioc-xml' | 'bioc-json' | 'brat' | 'pubannotation' | 'bio' | 'a2' | 'pubtator';

export interface ExportFile {
  name: string;
  content: string;
}

export interface ExportResult {
  files: ExportFile[];
  /** BIO only: mentions that could not be written (overlapping a kept one, or without a token). */
  mentionsLeftOut?: number;
}

/** One answered article of one server, with the family's part of the answer. */
export interface ExportDoc<R> {
  id: string;
  text: string;
  result: R;
  /** The article's passages when it came from a corpus (BioC and PubTator exports write them back). */
  sections?: readonly ArticleSection[];
}

export interface ExportOptions {
  /** The run name (`T<team>_S<n>`), for file names. */
  run: string;
  /** PubAnnotation's sourcedb. */
  sourcedb: string;
}

/**
 * Writes one server's answers for the task in one format ('tsv' goes through
 * `scoring.exportTsv`). Declared as a method so each family keeps its own result type.
 */
export type FamilyExport<R> = { write(docs: ReadonlyArray<ExportDoc<R>>, o: ExportOptions): ExportResult }['write'];

/** BC II.5 result files of answers (formats and `metaserver import` tooling). */
export interface TsvFile<R> {
  write(docs: ReadonlyArray<{ id: string; result: R }>): { text: string; columns: ColumnLayout };
  read(text: string, o: { columns: ColumnLayout; file?: string }): Array<{ id: string; result: R }>;
}

// ── web pages ──────────────────────────────────────────────────────────────────────────

/** One item as pages show it: a label, perhaps a link to the database entry. */
export interface WebItem {
  label: string;
  href?: string;
  /** Shown after the label, quieter: a span, a type. */
  detail?: string;
  confidence?: number;
  /** Consensus items: the item's share of the weight, and how many servers returned it. */
  share?: number;
  servers?: number;
  /** Spans of the article text the item is about (REL: its two mentions), shown in context, highlighted and named. */
  marks?: Array<{ start: number; end: number; label: string }>;
  /** Further identifiers the item is about (CREL: its two concepts), each linked to its database entry when there is one. */
  links?: Array<{ label: string; href?: string }>;
}

/** How a page shows one server's answer for the task. */
export type AnswerView<R> =
  | { kind: 'verdict'; heading: string; verdict(result: R): { positive: boolean; confidence: number } }
  /** Spans of the text; `ids`: the concept ids a span is normalised to (`NS:accession`), linked to their databases. */
  | { kind: 'spans'; heading: string; spans(result: R): Array<{ start: number; end: number; text: string; type?: string; ids?: string[] }> }
  | { kind: 'list'; heading: string; items(result: R): WebItem[] }
  /** Items without an order (TOPIC's labels): a section of their own, each server's as an unordered list. */
  | { kind: 'labels'; heading: string; items(result: R): WebItem[] };

export interface FamilyWeb<R, V> {
  answer?: AnswerView<R>;
  /** The consensus as pages show it: a summary line, or a heading and items. */
  consensus?(vote: V): { summary: string } | { heading: string; items: WebItem[] };
  leaderboard: {
    /**
     * Table columns: [flattened metric, label]; absent: every figure. A function gets the
     * figures the rows hold, for columns that depend on the gold standard (TOPIC: one per label).
     */
    columns?: ReadonlyArray<readonly [string, string]> | ((figures: readonly string[]) => ReadonlyArray<readonly [string, string]>);
    /**
     * Instead of columns: figures grouped under a heading each (MENTION: strict, left and
     * right match, each P/R/F and counts); keys are `<group>.<figure>`. `breakdown` names
     * a metric holding the same groups per class (`perType.<type>.<group>.<figure>`), shown
     * in a table per class below the main one.
     */
    groups?: {
      groups: ReadonlyArray<readonly [string, string]>;
      figures: ReadonlyArray<readonly [string, string]>;
      breakdown?: { key: string; label: string };
    };
    /** The main figure against AUC iP/R; absent: no such plot. */
    scatter?: { x: string; y: string; yLabel: string; yDomain: [number, number] };
    /** Precision and recall of each run, with iso-F curves; absent: no such plot. */
    pr?: { p: string; r: string };
  };
  /** Forms where the task is ticked by default (server registration, new challenge). */
  preselected?: ReadonlyArray<'server' | 'challenge'>;
}

// ── the family ─────────────────────────────────────────────────────────────────────────

export interface TaskFamily<N extends string = string, R = unknown, G = unknown, Run = unknown, V = unknown, L = unknown> {
  /** The task name: API paths, CLI arguments, the database. */
  name: N;
  /** The key of the answer struct that carries this task (XML-RPC and JSON alike). */
  answerKey: string;
  /** For people: help texts and pages. */
  title: string;
  /** The server is also sent the given annotations (`given`), described so. */
  given?: { description: string };
  validate(value: unknown, input: TaskInput, report: Report, lookup: L | null): R | undefined;
  /**
   * Answer keys of other families whose validated results this one's validator reads
   * (`input.answered`): validated first, and even when their task was not asked.
   */
  reads?: readonly string[];
  counting: ItemCounting;
  /** The answer's form on the wire, as servers send it (XML-RPC struct member; plain JSON too). */
  wire: {
    toWire(result: R): EncodableValue;
    /** The form in words, for method help: `normalizations [{dbid, …}]`. */
    help: string;
  };
  scoring: FamilyScoring<G, Run>;
  consensus?: FamilyConsensus<R, G, V>;
  exports: Partial<Record<Exclude<ExportFormatName, 'tsv'>, FamilyExport<R>>>;
  /** BioC mapping of the results (BioC exports of any answer set). */
  bioc?: BiocTaskCodec<R>;
  /** BC II.5 result files of the results. */
  tsv?: TsvFile<R>;
  web: FamilyWeb<R, V>;
  /** Settings the family adds to the configuration (file paths), by key. */
  settings?: Readonly<Record<string, FamilySetting>>;
  lookup?: FamilyLookup<L>;
  commands?: readonly FamilyCommand[];
}

/** A family whose types the registry does not know; consumers hold families so. */
export type AnyFamily = TaskFamily<string, unknown, unknown, unknown, unknown, unknown>;

/**
 * Declares a family and its settings. The settings' keys join the configuration
 * (`metaserver config`, config files, environment), typed through the registry.
 */
export function defineFamily<N extends string, R, G, Run, V, L, S extends Record<string, FamilySetting> = Record<never, never>>(
  family: Omit<TaskFamily<N, R, G, Run, V, L>, 'settings'> & { settings?: S },
): Omit<TaskFamily<N, R, G, Run, V, L>, 'settings'> & { settings: S } {
  return { ...family, settings: family.settings ?? ({} as S) };
}
