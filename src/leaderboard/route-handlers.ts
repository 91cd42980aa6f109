// What each of the scoring routes does (routes.ts registers them, route-schemas.ts types
// them): find the challenge, check who may read or send what, hand the body to the
// leaderboard service and answer with what it returns. Parsing and scoring are the service's.
import type { Static } from 'typebox';
import { checkAccess, principalOf, teamOf } from '../auth/access.ts';
import type { Principal } from '../auth/principal.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { hasClosed, type Challenge, type ChallengeRepository } from '../challenges/repository.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { COLUMN_LAYOUTS, type ColumnLayout } from '../scoring/index.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import { leaderboardTsv } from './leaderboard.ts';
import { significanceTrials } from './board-significance.ts';
import { baselineNameOf } from './baselines.ts';
import type { LeaderboardService, ScoreRequest } from './service.ts';
import type { OfficialBoards } from './official-boards.ts';
import { exportGold, sendCorpusExport, type LoadedArticles } from './gold-export.ts';
import { planRunsExport } from './runs-export.ts';
import { tarGzStream } from '../formats/tar-gz.ts';
import type * as S from './route-schemas.ts';

const TSV = 'text/tab-separated-values; charset=utf-8';

/** What the scoring routes need, handed over by the composition root. */
export interface LeaderboardRouteDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  leaderboard: Pick<LeaderboardService, 'putGold' | 'putMap' | 'addRun' | 'putBaseline' | 'leaderboard' | 'gold' | 'runsExportSources'>;
  /** The boards kept as they were at the close (`?board=official`), taken again on the organiser's loads while closed. */
  official: Pick<OfficialBoards, 'read' | 'retakeIfOpen'>;
  /** The UniProt release gold lines are checked against, when one is loaded. */
  accessions: AccessionLookup | null;
  /** The articles as loaded: the texts a MENTION gold in its own form is exported on. */
  articles: LoadedArticles;
}

const flag = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true');

/** Who may read a leaderboard: everyone once published, teams once closed (or in the post phase), the organiser always. */
function checkMayRead(principal: Principal, challenge: Challenge): void {
  // Published leaderboards of a closed challenge are for everyone; otherwise a token is needed.
  const published = hasClosed(challenge) && challenge.leaderboardPublished;
  if (!published) checkAccess('participant', principal);
  if (principal.role === 'team' && !hasClosed(challenge)) {
    throw new ApiError(
      'not_published',
      `scores are published to teams once the challenge is closed; "${challenge.slug}" is in phase "${challenge.phase}"`,
    );
  }
}

/** Who may download every run: the organiser; a team once the organiser publishes the leaderboards (withdrawn when the challenge is reopened). */
function checkMayExportRuns(principal: Principal, challenge: Challenge): void {
  if (principal.role === 'team' && !challenge.leaderboardPublished)
    throw new ApiError(
      'not_published',
      `every run of "${challenge.slug}" is given to teams once the organiser publishes its leaderboards; they are not published`,
    );
}

/** The scoring options the query asks for; one the task's family does not take is a 400. */
function scoreRequestOf(task: TaskName, q: Static<typeof S.Scores.querystring>): ScoreRequest {
  const wanted: ScoreRequest = {
    all: flag(q.all),
    cutoff: q.cutoff === undefined ? undefined : Number(q.cutoff),
    beta: q.beta === undefined ? undefined : Number(q.beta),
    ho: flag(q.ho),
    of: flag(q.of),
    singleClass: flag(q.singleClass),
  };
  for (const [name, value] of Object.entries(wanted)) {
    if (value !== undefined && !familyOf(task).scoring.options.includes(name as keyof ScoreRequest))
      throw badRequest(`${name} does not apply to ${task}; leave it out`);
  }
  if (wanted.beta !== undefined && !(wanted.beta > 0)) throw badRequest('beta must be a positive number');
  return wanted;
}

/** `?board=official` takes no option: the official board is the one stored at the close, with the default options. */
function checkOfficialQuery(q: Static<typeof S.Scores.querystring>): void {
  const asked = Object.entries(q).filter(([name, value]) => value !== undefined && name !== 'board' && name !== 'format');
  if (asked.length > 0) {
    throw badRequest(
      `board=official is the board stored at the close, with the default options; leave out ${asked.map(([name]) => name).join(', ')} (they apply to the live board)`,
    );
  }
}

/** `significance=1` and its trials, checked (a family without per-document counts is refused); undefined when not asked. */
function significanceOf(task: TaskName, q: Static<typeof S.Scores.querystring>): { trials: number } | undefined {
  if (flag(q.significance) !== true) {
    if (q.trials !== undefined) throw badRequest('trials applies with significance=1 only; add significance=1 or leave trials out');
    return undefined;
  }
  return { trials: significanceTrials(task, q.trials === undefined ? undefined : Number(q.trials)) };
}

export class LeaderboardHandlers {
  constructor(private readonly deps: LeaderboardRouteDeps) {}

  readonly putGold: RouteHandler<typeof S.PutGold> = async (request) => {
    const { task } = request.params;
    const challenge = await challengeOf(this.deps.challenges, request.params);
    const { documents, items, warnings, unknownDocuments, unknownDocumentIds, replaced } = await this.deps.leaderboard.putGold(
      challenge,
      task,
      request.body,
      request.query.format,
      this.deps.accessions,
    );
    request.log.info({ challenge: challenge.slug, task, documents, items, replaced: replaced !== null }, 'gold standard loaded');
    // Closed, post phase not opened: the official board is the close's runs against this gold.
    await this.deps.official.retakeIfOpen(challenge, task);
    return { task, documents, items, unknownDocuments, unknownDocumentIds, warnings, replaced };
  };

  readonly putMap: RouteHandler<typeof S.PutMap> = async (request) => {
    const challenge = await challengeOf(this.deps.challenges, request.params);
    return { kind: request.params.kind, entries: await this.deps.leaderboard.putMap(challenge, request.params.kind, request.body) };
  };

  readonly addRun: RouteHandler<typeof S.AddRun> = async (request, reply) => {
    const baseline = baselineNameOf(principalOf(request), request.query);
    const { task } = request.params;
    const challenge = await challengeOf(this.deps.challenges, request.params);
    // Teams' runs are frozen with their answers at the close; a baseline is the organiser's
    // reference, often made once the gold is in, so it is accepted then too.
    if (baseline === undefined) refuseWhenClosed(challenge, 'no runs are accepted');
    const columns = (request.query.columns ?? 'rank,confidence') as ColumnLayout;
    if (!COLUMN_LAYOUTS.includes(columns))
      throw badRequest(`columns must be one of ${COLUMN_LAYOUTS.join(' | ')}, not "${request.query.columns}"`);
    if (baseline !== undefined) {
      const put = await this.deps.leaderboard.putBaseline(challenge, task, baseline, columns, request.body, request.query.format);
      request.log.info({ challenge: challenge.slug, task, baseline, replaced: put.replaced }, 'baseline stored');
      await this.deps.official.retakeIfOpen(challenge, task);
      return reply.status(201).send({ runId: put.id, run: put.name, baseline: true, replaced: put.replaced, warnings: put.warnings });
    }
    const principal = teamOf(request);
    const run = await this.deps.leaderboard.addRun(challenge, principal.teamId, task, columns, request.body, request.query.format);
    request.log.info({ challenge: challenge.slug, task, team: principal.teamId, run: run.name }, 'offline run stored');
    return reply.status(201).send({ runId: run.id, run: run.name, n: run.n, warnings: run.warnings });
  };

  readonly scores: RouteHandler<typeof S.Scores> = async (request, reply) => {
    const principal = principalOf(request);
    const { task } = request.params;
    const challenge = await challengeOf(this.deps.challenges, request.params);
    checkMayRead(principal, challenge);
    const board =
      request.query.board === 'official'
        ? await this.officialBoard(challenge, task, request.query)
        : await this.liveBoard(challenge, task, request.query);
    if (request.query.format === 'tsv') return reply.type(TSV).send(leaderboardTsv(board));
    return board;
  };

  private async officialBoard(challenge: Challenge, task: TaskName, query: Static<typeof S.Scores.querystring>) {
    checkOfficialQuery(query);
    return await this.deps.official.read(challenge, task);
  }

  /** The board as things stand; once the challenge has closed it says so, and which close the official board is of. */
  private async liveBoard(challenge: Challenge, task: TaskName, query: Static<typeof S.Scores.querystring>) {
    const wanted = scoreRequestOf(task, query);
    const options = Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined));
    // The consensus rows (kind C) and significance are not scoring options: not echoed in options.
    const significance = significanceOf(task, query);
    const consensus = flag(query.consensus) === true;
    const board = await this.deps.leaderboard.leaderboard(challenge, task, wanted, options, consensus, significance);
    if (!hasClosed(challenge) || challenge.officialClosedAt === null) return board;
    return { ...board, board: 'live' as const, closedAt: challenge.officialClosedAt.toISOString() };
  }

  readonly exportGold: RouteHandler<typeof S.ExportGold> = async (request, reply) => {
    const { task, format } = request.params;
    const challenge = await challengeOf(this.deps.challenges, request.params);
    const sourcedb = request.query.sourcedb ?? challenge.slug;
    const deps = { gold: this.deps.leaderboard.gold, articles: this.deps.articles };
    const exported = await exportGold(deps, challenge, task, format, sourcedb);
    return await sendCorpusExport(reply, exported, { challenge: challenge.slug, task, format }, request.query.archive);
  };

  readonly exportRuns: RouteHandler<typeof S.ExportRuns> = async (request, reply) => {
    const challenge = await challengeOf(this.deps.challenges, request.params);
    checkMayExportRuns(principalOf(request), challenge);
    // The boards and the runs' headings are read first: a failure there is an ordinary error answer.
    const write = await planRunsExport(this.deps.leaderboard.runsExportSources(), challenge);
    request.log.info({ challenge: challenge.slug }, 'runs export started');
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="${`${challenge.slug}.runs.tar.gz`.replace(/[^\w.-]/g, '_')}"`)
      .send(tarGzStream(write));
  };
}
