// Puts stored inputs together for the routes: gold, maps, offline runs and the servers'
// online runs, parsed with the scoring library. Bad user input surfaces as a 400 naming
// the place (line) and what to do; nothing is stored unless it parsed.
import type { EnsembleModelRepository } from '../consensus/model-repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { Challenge } from '../challenges/repository.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { parseHomonymOrthologMap, parseOrganismMap, type ColumnLayout } from '../scoring/index.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import { checkGoldLines } from './gold-checks.ts';
import { parseOr400 } from './parse-or-400.ts';
import type { GoldRepository, MapKind } from './gold-repository.ts';
import {
  goldDocuments,
  loadStoredBody,
  parseGoldUpload,
  parseRunUpload,
  storedBody,
  uploadsText,
  type Gold,
  type ParsedGold,
  type RunData,
} from './inputs.ts';
import { buildLeaderboard, type Leaderboard, type LeaderboardOptions, type LeaderboardRow, type RunToScore } from './leaderboard.ts';
import { onlineRun, type OnlineAnswer } from './online-runs.ts';
import type { StoredAnswers } from '../consensus/challenge-runs.ts';
import { MAX_OFFLINE_RUNS, type OfflineRun, type RunsRepository } from './runs-repository.ts';
import { closedError } from '../challenges/frozen.ts';
import { consensusModel, consensusRuns } from './consensus-runs.ts';
import type { OfficialBoardRepository } from './official-board-repository.ts';
import { streamedScoringOf } from './streamed-families.ts';
import { LEADERBOARD_PAGE_DOCUMENTS, streamedLeaderboard, type PageSources, type StreamedRuns } from './streamed-leaderboard.ts';
import type { StreamedScoring } from '../families/common/streamed.ts';
import { corpusUpload, corpusUploadOf, type CorpusUpload } from './gold-corpus.ts';
import { checkSignificanceSize, withSignificance } from './board-significance.ts';
import type { RunsExportSources } from './runs-export.ts';

/** Online run names follow the offline ones: T<team id>_S<n>, n given at registration (never renumbered). */
export function onlineRunName(server: { runName: string }): string {
  return server.runName;
}

/** Said when gold is loaded: its documents of background articles are not scored (while they stay background). */
function backgroundWarning(slug: string, background: ReadonlySet<string>): string {
  const first = [...background].slice(0, 5).join(', ');
  return `${background.size} document(s) of the gold standard are background articles of this challenge and are not scored (${first}${background.size > 5 ? ', …' : ''}); mark them scored (PATCH /api/challenges/${slug}/scored-articles {"scored": [...]}) to score them`;
}

/** The gold standard a new load replaced. */
export interface ReplacedGold {
  documents: number;
  items: number;
  loadedAt: string;
}

export interface ScoreRequest {
  all?: boolean;
  cutoff?: number;
  beta?: number;
  ho?: boolean;
  of?: boolean;
  singleClass?: boolean;
}

/** The repositories the leaderboard reads (app-context.ts hands them over). */
export interface LeaderboardRepositories {
  gold: GoldRepository;
  runs: RunsRepository;
  /** ArticleRepository (by shape: articles/ builds on the leaderboard, not the other way). */
  articles: { knownIds(challengeId: number, organiserIds: readonly string[]): Promise<Set<string>> };
  /** ScoredArticleRepository, by shape as above: which gold documents are background articles, not scored. */
  scored: { backgroundIds(challengeId: number, organiserIds: readonly string[]): Promise<Set<string>> };
  servers: ServerRepository;
  /** AnswerRepository, by shape as above. */
  answers: StoredAnswers &
    PageSources['answers'] & {
      onlineAnswers(serverId: number, task: TaskName, opts: { scoredOnly: boolean }): Promise<OnlineAnswer[]>;
      onlineAnswerCounts(serverIds: readonly number[], task: TaskName): Promise<Map<number, number>>;
      postChallengeServers(challengeId: number, serverIds: readonly number[], task: TaskName): Promise<Set<number>>;
      onlineAnswerTimes(serverIds: readonly number[], task: TaskName): Promise<Map<number, Date>>;
    };
  models: EnsembleModelRepository;
  /** The boards stored at the close (the runs' export writes them beside the live ones). */
  officialBoards: Pick<OfficialBoardRepository, 'get'>;
}

export class LeaderboardService {
  readonly gold: GoldRepository;
  readonly runs: RunsRepository;

  /** `pageSize`: documents per page of a streamed leaderboard (tests make it small). */
  constructor(
    private readonly repos: LeaderboardRepositories,
    private readonly pageSize = LEADERBOARD_PAGE_DOCUMENTS,
  ) {
    this.gold = repos.gold;
    this.runs = repos.runs;
  }

  async putGold(
    challenge: Challenge,
    task: TaskName,
    sent: unknown,
    format?: CorpusUpload,
    release: AccessionLookup | null = null,
  ): Promise<ParsedGold & { unknownDocuments: number; unknownDocumentIds: string[]; replaced: ReplacedGold | null }> {
    // A corpus (BioC, PubTator) becomes the family's own form first; that form is stored.
    const upload = corpusUploadOf(sent, format);
    const corpus = upload ? corpusUpload(task, sent, upload, 'gold standard', challenge) : undefined;
    const body = corpus ? corpus.body : sent;
    const read = parseOr400(`${task} gold standard`, () => parseGoldUpload(task, body, challenge));
    const scoring = familyOf(task).scoring;
    // The family's own tab-separated form gets the checks a run's answer gets (columns, accessions).
    const releaseWarnings =
      scoring.upload === 'tsv' && typeof body === 'string' ? checkGoldLines(task, scoring.goldForm, body, release) : [];
    const parsed = { ...read, warnings: [...(corpus?.warnings ?? []), ...read.warnings, ...releaseWarnings] };
    // Loading gold replaces the task's previous gold: the answer says what it replaced.
    const before = await this.gold.gold(challenge.id, task);
    const replaced = before ? { documents: before.documents, items: before.items, loadedAt: before.loadedAt.toISOString() } : null;
    // A streamed family's gold is kept per document too, for leaderboards read page by page.
    const perDocument = streamedScoringOf(task)?.goldParts(body);
    const counts = { documents: parsed.documents, items: parsed.items };
    await this.gold.putGold(challenge.id, task, storedBody(task, body), counts, perDocument, corpus?.asLoaded);
    // Gold may be loaded before the articles; say how many documents no article matches yet.
    const ids = [...goldDocuments(parsed.gold)];
    const known = await this.repos.articles.knownIds(challenge.id, ids);
    const unknown = ids.filter((id) => !known.has(id));
    const background = await this.repos.scored.backgroundIds(challenge.id, ids);
    if (background.size > 0) parsed.warnings.push(backgroundWarning(challenge.slug, background));
    // The first few ids, so a person can see what is wrong (a prefix, a version suffix…).
    return { ...parsed, unknownDocuments: unknown.length, unknownDocumentIds: unknown.slice(0, 20), replaced };
  }

  async putMap(challenge: Challenge, kind: MapKind, body: unknown): Promise<number> {
    if (typeof body !== 'string' || body.trim() === '') {
      throw badRequest(
        `send the ${kind === 'ho' ? 'homonym-ortholog' : 'organism'} map as tab-separated text (Content-Type: text/tab-separated-values)`,
      );
    }
    const what = kind === 'ho' ? 'homonym-ortholog map' : 'organism map';
    const entries = parseOr400(
      what,
      () => (kind === 'ho' ? parseHomonymOrthologMap(body, { file: what }) : parseOrganismMap(body, { file: what })).size,
    );
    await this.gold.putMap(challenge.id, kind, body, entries);
    return entries;
  }

  /** A run as sent, parsed as every offline run is (team's or baseline): what to store, and the warnings. */
  private readRun(challenge: Challenge, task: TaskName, columns: ColumnLayout, sent: unknown, format?: CorpusUpload) {
    const upload = corpusUploadOf(sent, format);
    const corpus = upload ? corpusUpload(task, sent, upload, 'run', challenge) : undefined;
    const body = corpus ? corpus.body : sent;
    const read = parseOr400(`${task} run`, () => parseRunUpload(task, body, columns, challenge));
    const warnings = [...(corpus?.warnings ?? []), ...read.warnings];
    return { columns: uploadsText(task) ? columns : null, body: storedBody(task, body), warnings };
  }

  async addRun(
    challenge: Challenge,
    teamId: number,
    task: TaskName,
    columns: ColumnLayout,
    sent: unknown,
    format?: CorpusUpload,
  ): Promise<{ id: number; name: string; n: number; warnings: string[] }> {
    const { warnings, ...stored } = this.readRun(challenge, task, columns, sent, format);
    const added = await this.runs.add(challenge.id, teamId, task, stored.columns, stored.body);
    if (added === 'closed') throw closedError(challenge.slug, 'no runs are accepted');
    if (added === 'limit') {
      const which = challenge.phase === 'post' ? 'post-challenge ' : '';
      throw new ApiError(
        'run_limit',
        `your team has uploaded ${MAX_OFFLINE_RUNS} ${which}offline ${task} runs already, the most allowed per team and task${challenge.phase === 'post' ? ' after the close' : ''}; nothing was stored`,
      );
    }
    return { ...added, warnings };
  }

  /** The organiser's baseline `name`, read and stored like a team's run; one of the same name is replaced. */
  async putBaseline(
    challenge: Challenge,
    task: TaskName,
    name: string,
    columns: ColumnLayout,
    sent: unknown,
    format?: CorpusUpload,
  ): Promise<{ id: number; name: string; replaced: boolean; warnings: string[] }> {
    const { warnings, ...stored } = this.readRun(challenge, task, columns, sent, format);
    return { ...(await this.runs.putBaseline(challenge.id, task, name, stored.columns, stored.body)), warnings };
  }

  /** The task's stored gold, parsed; null when none is loaded. */
  async storedGold(challenge: Challenge, task: TaskName): Promise<Gold | null> {
    const stored = await this.gold.gold(challenge.id, task);
    return stored
      ? parseOr400(`stored ${task} gold standard`, () => parseGoldUpload(task, loadStoredBody(task, stored.body), challenge).gold)
      : null;
  }

  private async loadGold(challenge: Challenge, task: TaskName): Promise<Gold> {
    const gold = await this.storedGold(challenge, task);
    if (!gold) {
      throw new ApiError(
        'no_gold',
        `no ${task} gold standard is loaded for challenge "${challenge.slug}"; the organiser loads it with PUT /api/challenges/${challenge.slug}/gold/${task}`,
      );
    }
    return await this.scoredGold(challenge, gold);
  }

  /**
   * The gold without its documents of background articles: the leaderboards score the marked
   * articles only (migration 016). A run's documents outside the gold are not scored by any
   * family, so this also leaves out what offline runs and the consensus say of background
   * articles. Gold documents without an article stay (gold may come before the articles).
   */
  private async scoredGold(challenge: Challenge, gold: Gold): Promise<Gold> {
    const background = await this.repos.scored.backgroundIds(challenge.id, [...goldDocuments(gold)]);
    return background.size === 0 ? gold : { task: gold.task, gold: familyOf(gold.task).scoring.withoutDocuments(gold.gold, background) };
  }

  private async loadMaps(challenge: Challenge, request: ScoreRequest): Promise<Pick<LeaderboardOptions, 'orthologMap' | 'organismMap'>> {
    const load = async (kind: MapKind) => {
      const stored = await this.gold.map(challenge.id, kind);
      if (!stored)
        throw badRequest(
          `${kind}=1 asks for the ${kind === 'ho' ? 'homonym-ortholog' : 'organism'} map, but none is loaded; the organiser loads it on the challenge's settings page (/challenges/${challenge.slug}/settings), or with PUT /api/challenges/${challenge.slug}/maps/${kind}`,
        );
      return stored.body;
    };
    return {
      orthologMap: request.ho ? parseHomonymOrthologMap(await load('ho')) : undefined,
      organismMap: request.of ? parseOrganismMap(await load('of')) : undefined,
    };
  }

  /**
   * The task's live board (scoredBoard); once the challenge's post phase has opened, each
   * row says whether it has something that arrived after the official close (postChallenge).
   */
  async leaderboard(
    challenge: Challenge,
    task: TaskName,
    request: ScoreRequest,
    options: Record<string, unknown>,
    consensus = false,
    significance?: { trials: number },
  ): Promise<Leaderboard> {
    const board = await this.scoredBoard(challenge, task, request, options, consensus, significance);
    if (challenge.postOpenedAt === null) return board;
    const servers = board.runs.flatMap((r) => (r.kind === 'S' && r.server !== undefined ? [r.server] : []));
    const lateServers = await this.repos.answers.postChallengeServers(challenge.id, servers, task);
    const lateRuns = new Set((await this.runs.heads(challenge.id, task)).filter((r) => r.postChallenge).map((r) => r.name));
    const late = (r: LeaderboardRow) => (r.kind === 'S' ? lateServers.has(r.server ?? -1) : r.kind === 'R' && lateRuns.has(r.run));
    return { ...board, runs: board.runs.map((r) => ({ ...r, postChallenge: late(r) })) };
  }

  /**
   * Every server registered for the task (S), every offline run (R) and, when asked, the
   * consensus (C), scored; with `trials` (significance=1), their intervals and p-values
   * (board-significance.ts), from the whole runs: the per-document counts of every run are
   * held at once, so a gold stored per document is not read page by page then.
   */
  private async scoredBoard(
    challenge: Challenge,
    task: TaskName,
    request: ScoreRequest,
    options: Record<string, unknown>,
    consensus = false,
    significance?: { trials: number },
  ): Promise<Leaderboard> {
    const streamed = streamedScoringOf(task);
    const heading = await this.gold.goldHeading(challenge.id, task);
    if (significance && heading) checkSignificanceSize(task, heading.documents);
    if (!significance && streamed && heading?.perDocument)
      return await this.streamedBoard(challenge, task, streamed, request, options, consensus);
    const gold = await this.loadGold(challenge, task);
    const maps = await this.loadMaps(challenge, request);
    const runs: RunToScore[] = [];
    const servers = await this.repos.servers.listByChallenge(challenge.id);
    for (const server of servers.filter((s) => s.tasks.includes(task))) {
      // Scored articles only: `answered` counts those, as the gold does.
      const answers = await this.repos.answers.onlineAnswers(server.id, task, { scoredOnly: true });
      runs.push({
        run: onlineRunName(server),
        team: server.team,
        server: server.id,
        serverName: server.name,
        answered: answers.length,
        kind: 'S',
        data: onlineRun(task, answers),
      });
    }
    for (const run of await this.runs.list(challenge.id, task)) {
      // Stored runs parsed when they were uploaded, so this fails only if the parser changed.
      runs.push({ run: run.name, team: run.team, kind: 'R', baseline: run.baseline, data: this.storedRun(challenge, task, run) });
    }
    if (consensus) runs.push(...(await consensusRuns(this.repos, challenge, task, servers, (s) => onlineRunName(s))));
    const settings = { ...request, ...maps };
    const board = buildLeaderboard(task, gold, runs, settings, options);
    if (!significance) return board;
    // The seed names the data: the same gold, options and runs give the same figures.
    const seed = [challenge.id, task, heading?.loadedAt.toISOString(), JSON.stringify(options)].join('\u0000');
    return withSignificance(board, { gold, runs, settings, trials: significance.trials, seed });
  }

  /** What the runs' export reads: the repositories, each task's board as GET /scores/:task answers it without options, the gold's background documents. */
  runsExportSources(): RunsExportSources {
    return {
      gold: this.gold,
      runs: this.runs,
      servers: this.repos.servers,
      answers: this.repos.answers,
      board: async (challenge, task) => await this.leaderboard(challenge, task, {}, {}),
      officialBoard: async (challenge, task) => (await this.repos.officialBoards.get(challenge.id, task))?.board ?? null,
      background: async (challenge, task) => {
        const gold = await this.storedGold(challenge, task);
        return gold ? [...(await this.repos.scored.backgroundIds(challenge.id, [...goldDocuments(gold)]))] : [];
      },
    };
  }

  /** An offline run as stored, parsed (it was parsed at upload, so this fails only if the parser changed). */
  private storedRun(challenge: Challenge, task: TaskName, run: OfflineRun): RunData {
    return parseOr400(`stored run ${run.name}`, () =>
      parseRunUpload(task, loadStoredBody(task, run.body), run.columns ?? 'rank,confidence', challenge),
    ).run;
  }

  /** The leaderboard of a gold stored per document, read and scored a page of documents at a time. */
  private async streamedBoard(
    challenge: Challenge,
    task: TaskName,
    streamed: StreamedScoring<unknown, unknown, unknown>,
    request: ScoreRequest,
    options: Record<string, unknown>,
    consensus: boolean,
  ): Promise<Leaderboard> {
    const maps = await this.loadMaps(challenge, request);
    const servers = (await this.repos.servers.listByChallenge(challenge.id)).filter((s) => s.tasks.includes(task));
    const answered = await this.repos.answers.onlineAnswerCounts(
      servers.map((s) => s.id),
      task,
    );
    const offline = (await this.runs.list(challenge.id, task)).map((run) => ({
      run: run.name,
      team: run.team,
      baseline: run.baseline,
      data: this.storedRun(challenge, task, run).run,
    }));
    const runs: StreamedRuns = {
      servers: servers.map((s) => ({
        run: onlineRunName(s),
        team: s.team,
        server: s.id,
        serverName: s.name,
        answered: answered.get(s.id) ?? 0,
      })),
      offline,
      consensus: consensus && familyOf(task).consensus ? { model: await consensusModel(this.repos.models, challenge.id, task) } : null,
    };
    const settings = { ...request, ...maps, organismMapFile: 'organism map' };
    return await streamedLeaderboard(
      this.repos,
      { challengeId: challenge.id, task, streamed, settings, options, pageSize: this.pageSize },
      runs,
    );
  }
}
