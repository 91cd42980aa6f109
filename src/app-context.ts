// Everything the routes and workers share, built once per process by the composition root
// (runtime.ts). The database is reached only through the repositories built here: routes
// and services get repositories, never the database handle.
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './log.ts';
import type { Authenticator } from './auth/principal.ts';
import { AnswerRepository } from './articles/answer-repository.ts';
import { ArticleRepository } from './articles/repository.ts';
import { ScoredArticleRepository } from './articles/scored-repository.ts';
import { CallbackRepository } from './callbacks/repository.ts';
import { ChallengeRepository } from './challenges/repository.ts';
import { EnsembleModelRepository } from './consensus/model-repository.ts';
import { SettingsRepository } from './db/settings-repository.ts';
import { GoldRepository } from './leaderboard/gold-repository.ts';
import { RunsRepository } from './leaderboard/runs-repository.ts';
import { OfficialBoardRepository } from './leaderboard/official-board-repository.ts';
import type { LeaderboardService } from './leaderboard/service.ts';
import { ReliabilityRepository } from './reliability/repository.ts';
import { ServerRepository } from './servers/repository.ts';
import { ServerStatusRepository } from './servers/status-repository.ts';
import { RunningCheckRepository } from './servers/setup-check/running-check-repository.ts';
import { TeamRepository } from './teams/repository.ts';
import { SuiteRunRepository } from './testsuites/run-repository.ts';
import type { AnswerReader } from './dispatch/answer-reader.ts';
import type { DispatchService } from './dispatch/service.ts';
import type { Outages } from './dispatch/outages.ts';
import { DispatchStore } from './dispatch/dispatch-store.ts';
import { UnsettledRepository } from './dispatch/unsettled-repository.ts';
import type { RetryPolicy } from './db/retry.ts';
import type { AccessionLookup } from './uniprot/index.ts';
import type { FamilyLookups } from './families/family.ts';
import type { LeaseService } from './pull/lease-service.ts';
import type { ServerLifecycle } from './servers/lifecycle.ts';

export interface Repositories {
  settings: SettingsRepository;
  challenges: ChallengeRepository;
  teams: TeamRepository;
  servers: ServerRepository;
  serverStatus: ServerStatusRepository;
  reliability: ReliabilityRepository;
  articles: ArticleRepository;
  answers: AnswerRepository;
  /** Which articles the leaderboards score, and which are background (migration 016). */
  scored: ScoredArticleRepository;
  callbacks: CallbackRepository;
  gold: GoldRepository;
  runs: RunsRepository;
  /** The boards as they were at each challenge's close (migration 025). */
  officialBoards: OfficialBoardRepository;
  models: EnsembleModelRepository;
  suiteRuns: SuiteRunRepository;
  store: DispatchStore;
  /** The oldest pair still owed, for /metrics. */
  unsettled: UnsettledRepository;
  runningChecks: RunningCheckRepository;
}

/**
 * `cacheBytes`: the byte bound of the article texts kept for dispatch (Config.cacheMaxBytes);
 * `writeRetry`: how the dispatch store retries a write the database refused for a moment.
 */
export function createRepositories(db: Database, opts: { cacheBytes?: number; writeRetry?: Partial<RetryPolicy> } = {}): Repositories {
  return {
    settings: new SettingsRepository(db),
    challenges: new ChallengeRepository(db),
    teams: new TeamRepository(db),
    servers: new ServerRepository(db),
    serverStatus: new ServerStatusRepository(db),
    reliability: new ReliabilityRepository(db),
    articles: new ArticleRepository(db, { cacheBytes: opts.cacheBytes }),
    answers: new AnswerRepository(db),
    scored: new ScoredArticleRepository(db),
    callbacks: new CallbackRepository(db),
    gold: new GoldRepository(db),
    runs: new RunsRepository(db),
    officialBoards: new OfficialBoardRepository(db),
    models: new EnsembleModelRepository(db),
    suiteRuns: new SuiteRunRepository(db),
    store: new DispatchStore(db, { retry: opts.writeRetry }),
    unsettled: new UnsettledRepository(db),
    runningChecks: new RunningCheckRepository(db),
  };
}

export interface AppContext {
  config: Config;
  log: Logger;
  repos: Repositories;
  dispatch: DispatchService;
  leaderboard: LeaderboardService;
  /** Annotation servers registered, checked, started, paused and deleted (servers/lifecycle.ts). */
  servers: ServerLifecycle;
  auth: Authenticator;
  accessions: AccessionLookup | null;
  /** The task families' release indexes, by task (loadFamilyLookups). */
  lookups: FamilyLookups;
  /** Reads answers (decode and validate), big ones off the event loop. */
  answers: AnswerReader;
  /** Health of the queue store, for /healthz. */
  pingRedis(): Promise<boolean>;
  /** This process's outages of the database and Redis: logged once each while they last, and read by /metrics. */
  outages: Outages;
  /** A dump of the embedded database, taken by the process that owns it (PGlite only; src/backup). */
  dumpDatabase?: () => Promise<Buffer>;
  /** The pull protocol's leases (src/pull), in processes that serve the API. */
  leases?: LeaseService;
}
