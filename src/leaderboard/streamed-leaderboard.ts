// A leaderboard read a page of documents at a time, for families whose figures are sums of
// per-document counts (streamed-families.ts). Each page is the next `pageSize` gold
// documents by id (the gold stored per document, read by key), every server's answers to
// those documents in one query (found by the articles' (challenge, organiser id) key), and
// each offline run's items for them; every run's counts of the page are added to its tally,
// and the tallies become figures at the end. What is held at once is one page and the
// tallies, so a challenge of a million articles is scored in bounded memory; the figures are
// those of scoring every run whole (the tests compare both on randomised challenges). The
// next page is read while one is scored.
// Offline runs are one stored body each, read whole once (an upload's size). The answers
// are read as they stand; a gold standard replaced while the pages are read makes the
// request fail (409) rather than mix two gold standards.
import type { ChallengeDocument } from '../consensus/challenge-runs.ts';
import type { StoredModel } from '../consensus/model-repository.ts';
import type { StreamedScoring } from '../families/common/streamed.ts';
import type { OnlineAnswer, ScoreSettings } from '../families/family.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import { conflict } from '../http/api-error.ts';
import { ScoringInputError } from '../scoring/index.ts';
import { consensusRunsOf } from './consensus-runs.ts';
import type { GoldDocument, GoldHeading } from './gold-repository.ts';
import { rankLeaderboard, rowBase, type Leaderboard, type LeaderboardRow, type RunToScore } from './leaderboard.ts';
import { parseOr400 } from './parse-or-400.ts';

/** Documents per page: a few megabytes of answers for abstracts, and few enough round trips for a million. */
export const LEADERBOARD_PAGE_DOCUMENTS = 5_000;

/** One stored answer of a page (AnswerRepository.onlineAnswersOf). */
export interface PagedAnswer {
  doc: string;
  serverId: number;
  value: unknown;
}

/** Where the pages come from (GoldRepository and AnswerRepository, by shape). */
export interface PageSources {
  gold: {
    goldHeading(challengeId: number, task: TaskName): Promise<GoldHeading | null>;
    goldDocumentPage(challengeId: number, task: TaskName, after: string | null, limit: number): Promise<GoldDocument[]>;
  };
  answers: {
    onlineAnswersOf(challengeId: number, serverIds: readonly number[], task: TaskName, docs: readonly string[]): Promise<PagedAnswer[]>;
  };
}

/** The runs to score: servers (S rows, with their answer counts), offline runs (R, parsed), the consensus (C) when asked. */
export interface StreamedRuns {
  servers: Array<Omit<RunToScore, 'data' | 'kind'> & { server: number }>;
  offline: Array<{ run: string; team: string; baseline?: boolean; data: unknown }>;
  /** Null: no consensus rows; else the ensemble model, if one is scored too. */
  consensus: { model: StoredModel | null } | null;
}

interface RowTally {
  base: Omit<LeaderboardRow, 'metrics'>;
  tally: unknown;
  error?: string;
}

interface Page {
  docs: string[];
  gold: unknown;
  answers: PagedAnswer[];
}

/** The page's answers as each server's run, and as the consensus's documents. */
function serverRuns(task: TaskName, page: Page, runs: StreamedRuns): { byServer: Map<number, unknown>; docs: ChallengeDocument[] } {
  const answers = new Map<number, OnlineAnswer[]>();
  const docs = new Map<string, ChallengeDocument>();
  const names = new Map(runs.servers.map((s) => [s.server, s.run]));
  // By document then server, as the whole-run consensus reads them.
  const sorted = [...page.answers].sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : a.serverId - b.serverId));
  for (const a of sorted) {
    (answers.get(a.serverId) ?? answers.set(a.serverId, []).get(a.serverId)!).push({ doc: a.doc, value: a.value });
    if (!runs.consensus) continue;
    let doc = docs.get(a.doc);
    if (!doc) docs.set(a.doc, (doc = { doc: a.doc, answers: [] }));
    doc.answers.push({ serverId: a.serverId, run: names.get(a.serverId)!, result: { [task]: a.value } });
  }
  const onlineRun = familyOf(task).scoring.onlineRun;
  const byServer = new Map(runs.servers.map((s) => [s.server, onlineRun(answers.get(s.server) ?? [])]));
  return { byServer, docs: [...docs.values()] };
}

/** Adds one run's counts of the page; a run that cannot be scored keeps its error and is not counted further. */
function addTo(row: RowTally, streamed: StreamedScoring<unknown, unknown, unknown>, page: Page, run: unknown, s: ScoreSettings): void {
  if (row.error !== undefined) return;
  try {
    streamed.add(row.tally, page.gold, run, s);
  } catch (error) {
    // One bad run must not hide all the others (as on the whole-run path).
    if (!(error instanceof ScoringInputError)) throw error;
    row.error = error.message;
  }
}

export interface StreamedBoardRequest {
  challengeId: number;
  task: TaskName;
  streamed: StreamedScoring<unknown, unknown, unknown>;
  settings: ScoreSettings;
  options: Record<string, unknown>;
  pageSize?: number;
}

/** The leaderboard of a gold stored per document, scored page by page. */
export async function streamedLeaderboard(sources: PageSources, request: StreamedBoardRequest, runs: StreamedRuns): Promise<Leaderboard> {
  const { challengeId, task, streamed, settings } = request;
  const pageSize = request.pageSize ?? LEADERBOARD_PAGE_DOCUMENTS;
  const heading = await sources.gold.goldHeading(challengeId, task);
  const rows = new Map<string, RowTally>();
  const rowOf = (r: Omit<RunToScore, 'data'>) =>
    rows.get(`${r.kind}\u0000${r.run}`) ??
    rows.set(`${r.kind}\u0000${r.run}`, { base: rowBase(r), tally: streamed.empty() }).get(`${r.kind}\u0000${r.run}`)!;
  for (const s of runs.servers) rowOf({ ...s, kind: 'S' });
  const offline = runs.offline.map((r) => ({ row: rowOf({ ...r, kind: 'R' }), byDoc: streamed.byDocument(r.data) }));
  const serverIds = runs.servers.map((s) => s.server);
  const read = async (after: string | null): Promise<{ parts: GoldDocument[]; answers: PagedAnswer[] }> => {
    const parts = await sources.gold.goldDocumentPage(challengeId, task, after, pageSize);
    const docs = parts.map((p) => p.doc);
    return { parts, answers: parts.length === 0 ? [] : await sources.answers.onlineAnswersOf(challengeId, serverIds, task, docs) };
  };
  for (let next = read(null); ;) {
    const { parts, answers } = await next;
    if (parts.length === 0) break;
    // The next page is read while this one is scored, so the database and the scoring overlap
    // (two pages held at most). Its failure, if any, surfaces when it is awaited.
    next = parts.length < pageSize ? Promise.resolve({ parts: [], answers: [] }) : read(parts[parts.length - 1].doc);
    next.catch(() => undefined);
    const docs = parts.map((p) => p.doc);
    const gold = parseOr400(`stored ${task} gold standard`, () => streamed.goldOf(parts));
    const page: Page = { docs, gold, answers };
    const { byServer, docs: consensusDocs } = serverRuns(task, page, runs);
    for (const s of runs.servers) addTo(rowOf({ ...s, kind: 'S' }), streamed, page, byServer.get(s.server), settings);
    for (const r of offline)
      addTo(r.row, streamed, page, streamed.join(docs.flatMap((d) => (r.byDoc.has(d) ? [r.byDoc.get(d)] : []))), settings);
    if (runs.consensus) {
      for (const c of consensusRunsOf(task, consensusDocs, runs.consensus.model)) addTo(rowOf(c), streamed, page, c.data.run, settings);
    }
  }
  const now = await sources.gold.goldHeading(challengeId, task);
  if (heading?.loadedAt.getTime() !== now?.loadedAt.getTime())
    throw conflict(`the ${task} gold standard was replaced while the leaderboard was being scored; ask for it again`);
  const scored: LeaderboardRow[] = [...rows.values()].map((r) =>
    r.error !== undefined ? { ...r.base, metrics: {}, error: r.error } : { ...r.base, ...streamed.finish(r.tally, settings) },
  );
  return rankLeaderboard(task, scored, request.options);
}
