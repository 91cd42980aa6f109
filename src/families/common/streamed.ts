// Scoring a challenge a page of documents at a time: for a family whose figures are sums of
// per-document counts (MENTION's strict / left / right match and its NORM figures), the
// leaderboard reads the gold and every run's answers for a few thousand documents, adds
// their counts to a tally, and turns the tallies into figures at the end. Memory is one
// page, whatever the challenge's size; the figures are those of scoring the whole run at
// once (the family's `score`), which the tests compare on randomised challenges. Families
// whose figures need the whole run (ranked lists' AUC) have no streamed form.
import type { ScoreSettings, ScoredRun } from '../family.ts';

/** One gold document as stored per document: the family's upload form for that document alone. */
export interface GoldPart {
  doc: string;
  body: string;
}

export interface StreamedScoring<G, Run, Tally> {
  /** The gold upload (the family's own form, already read) cut per document. */
  goldParts(body: unknown): GoldPart[];
  /** A page of stored parts as the family's gold; throws ScoringInputError as parseGold does. */
  goldOf(parts: readonly GoldPart[]): G;
  /** A run's items by document (offline runs, read whole once). */
  byDocument(run: Run): Map<string, Run>;
  /** Runs of some documents as one run. */
  join(parts: readonly Run[]): Run;
  empty(): Tally;
  /** Adds the counts of `run` against `gold` (one page: its documents only) to `into`. */
  add(into: Tally, gold: G, run: Run, settings: ScoreSettings): void;
  /** The figures of the whole tally, as the family's `score` reports them. */
  finish(tally: Tally, settings: ScoreSettings): ScoredRun;
}
