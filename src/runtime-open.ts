// What a process opens before runtime.ts builds anything on it: the reader of answers with
// the release indexes it validates against, then Redis and the database, brought up together.
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import type { Logger } from './log.ts';
import { resolveRedis, type ResolvedRedis } from './queue/redis-launcher.ts';
import { UniprotIndex, type AccessionLookup, type IndexContents } from './uniprot/index.ts';
import { readIndexFile } from './uniprot/index-file.ts';
import { AnswerReader } from './dispatch/answer-reader.ts';
import type { FamilyLookups } from './families/family.ts';
import { loadFamilyLookups } from './families/lookups.ts';

/** The release in shared memory: the threads that read big answers use it without a copy (dispatch/answer-reader.ts). */
function loadAccessions(config: Config, log: Logger): { lookup: AccessionLookup; shared: IndexContents } | null {
  if (!config.uniprotIndex) {
    log.info('no UniProt release index configured (METASERVER_UNIPROT_INDEX): accessions are checked against the pattern only');
    return null;
  }
  const started = Date.now();
  const shared = readIndexFile(config.uniprotIndex, { shared: true });
  const lookup = new UniprotIndex(shared);
  log.info({ release: lookup.release, ms: Date.now() - started }, 'UniProt release index loaded');
  return { lookup, shared };
}

export interface AnswerReading {
  /** Decodes and validates answers, big ones off the event loop. */
  answers: AnswerReader;
  accessions: AccessionLookup | null;
  lookups: FamilyLookups;
}

/** The reader of answers, and what it validates them against: the UniProt release, the task families' own indexes. */
export function openAnswerReader(config: Config, log: Logger): AnswerReading {
  const accessions = loadAccessions(config, log);
  const lookups = loadFamilyLookups(config, log);
  const answers = new AnswerReader({ accessions, lookups });
  return { answers, accessions: accessions?.lookup ?? null, lookups: lookups.loaded };
}

export interface Stores {
  redis: ResolvedRedis;
  db: Database;
  /** Whether this process opened the database, and so closes it (not when it was handed one). */
  ownsDb: boolean;
}

/**
 * Redis (perhaps a redis-server to start) and the database (PGlite's start is the longest
 * step of a start-up) come up side by side; if either fails, the other is shut again.
 * `given`: an already-open database (tests), used as it is and never closed here.
 */
export async function openStores(config: Config, log: Logger, given?: Database): Promise<Stores> {
  const [redisUp, dbUp] = await Promise.allSettled([resolveRedis(config, log), given ? Promise.resolve(given) : openDatabase(config, log)]);
  if (redisUp.status === 'rejected' || dbUp.status === 'rejected') {
    if (redisUp.status === 'fulfilled') await redisUp.value.stop().catch(() => {});
    if (dbUp.status === 'fulfilled' && !given) await dbUp.value.close().catch(() => {});
    throw redisUp.status === 'rejected' ? redisUp.reason : (dbUp as PromiseRejectedResult).reason;
  }
  return { redis: redisUp.value, db: dbUp.value, ownsDb: !given };
}
