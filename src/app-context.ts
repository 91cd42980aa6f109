// Everything the routes and workers share, built once per process.
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './log.ts';
import type { Authenticator } from './auth/principal.ts';
import { ArticleRepository } from './articles/repository.ts';
import { ChallengeRepository } from './challenges/repository.ts';
import { ServerRepository } from './servers/repository.ts';
import { TeamRepository } from './teams/repository.ts';
import type { AnswerReader } from './dispatch/answer-reader.ts';
import type { DispatchService } from './dispatch/service.ts';
import { DispatchStore } from './dispatch/store.ts';
import type { AccessionLookup } from './uniprot/index.ts';
import type { FamilyLookups } from './families/family.ts';

export interface Repositories {
  challenges: ChallengeRepository;
  teams: TeamRepository;
  servers: ServerRepository;
  articles: ArticleRepository;
  store: DispatchStore;
}

/** `cacheBytes`: the byte bound of the article texts kept for dispatch (Config.cacheMaxBytes). */
export function createRepositories(db: Database, opts: { cacheBytes?: number } = {}): Repositories {
  return {
    challenges: new ChallengeRepository(db),
    teams: new TeamRepository(db),
    servers: new ServerRepository(db),
    articles: new ArticleRepository(db, { cacheBytes: opts.cacheBytes }),
    store: new DispatchStore(db),
  };
}

export interface AppContext {
  config: Config;
  log: Logger;
  db: Database;
  repos: Repositories;
  dispatch: DispatchService;
  auth: Authenticator;
  accessions: AccessionLookup | null;
  /** The task families' release indexes, by task (loadFamilyLookups). */
  lookups: FamilyLookups;
  /** Reads answers (decode and validate), big ones off the event loop. */
  answers: AnswerReader;
  /** Health of the queue store, for /healthz. */
  pingRedis(): Promise<boolean>;
}
