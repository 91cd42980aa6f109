// One typed, validated configuration: config/default.json, then an optional file named by
// METASERVER_CONFIG, then environment variables. A bad value stops the start with an error
// that names the setting, where it came from and what is allowed.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILY_SETTINGS, type FamilySettingKey } from './tasks/names.ts';
import ipaddr from 'ipaddr.js';

/** The settings of the meta-server itself; the task families add theirs (FamilySettingKey). */
export interface CoreConfig {
  port: number;
  host: string;
  redisUrl: string;
  redisWaitSeconds: number;
  redisCluster: string;
  databaseUrl: string;
  adminToken: string;
  dataDir: string;
  pgliteDiskReserveMb: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  openTeamRegistration: boolean;
  publicUrlsOnly: boolean;
  maxAnswerBytes: number;
  maxArticleBytes: number;
  maxOnDemandArticleBytes: number;
  onDemandPendingPerClient: number;
  onDemandPendingTotal: number;
  cacheMaxBytes: number;
  bodyLimitBytes: number;
  checkTimeoutSeconds: number;
  submitRateLimitPerMinute: number;
  trustProxy: string;
  statusCacheMs: number;
  queuePrefix: string;
  reconcileIntervalMs: number;
  dispatchWindow: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  serverSyncIntervalMs: number;
  uniprotIndex: string;
  shutdownGraceMs: number;
  databaseWriteRetries: number;
  callbackMaxAttempts: number;
  callbackRetryDelayMs: number;
  callbackTimeoutMs: number;
  workerHeartbeatFile: string;
  publicUrl: string;
  logFormat: 'auto' | 'pretty' | 'json';
  leaseRequestsPerMinute: number;
  leasePollIntervalMs: number;
  leasePollsPerTeam: number;
  leaseSweepIntervalMs: number;
  leaseKeepAliveSeconds: number;
}

export type Config = CoreConfig & Readonly<Record<FamilySettingKey, string>>;

type Kind = 'int' | 'string' | 'bool' | 'level';

interface SettingSpec {
  env: string;
  kind: Kind;
  min?: number;
  description: string;
  /** The value when no layer gives one (the families' settings); core settings are in config/default.json. */
  default?: string;
  /** What is wrong with a value of the right kind, or null. */
  problem?: (value: never) => string | null;
}

/** Names proxy-addr (fastify's trustProxy) knows for whole ranges of addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** The entries of the trustProxy setting (comma-separated). */
export const proxyEntries = (setting: string): string[] =>
  setting
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);

function proxyListProblem(setting: string): string | null {
  for (const entry of proxyEntries(setting)) {
    if (PROXY_RANGE_NAMES.includes(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry)) continue;
    return `"${entry}" is not an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')}; list the addresses of your reverse proxies, e.g. 127.0.0.1,10.0.0.0/8 (trusting every sender would let anyone choose the address they are counted under)`;
  }
  return null;
}

/** What is wrong with a publicUrl setting (checked when the configuration is loaded), or null. */
function publicUrlProblem(setting: string): string | null {
  if (setting === '') return null;
  let url: URL;
  try {
    url = new URL(setting);
  } catch {
    return `"${setting}" is not a URL; give the address clients use, e.g. https://metaserver.example.org`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${setting}" must start with https:// (or http://)`;
  if (url.username || url.password) return `"${setting}" must not hold a user name or password`;
  if (url.search || url.hash) return `"${setting}" must not hold a query or fragment`;
  if (url.pathname !== '/')
    return `"${setting}" has a path (${url.pathname}); the server is served at the root of its host name, so give the scheme and host only, e.g. ${url.origin}, and proxy the whole host to it`;
  return null;
}

const CORE_SETTINGS: Record<keyof CoreConfig, SettingSpec> = {
  port: { env: 'PORT', kind: 'int', min: 0, description: 'TCP port of the HTTP API and web pages.' },
  host: { env: 'HOST', kind: 'string', description: 'Interface to listen on; 0.0.0.0 to accept connections from other machines.' },
  redisUrl: {
    env: 'REDIS_URL',
    kind: 'string',
    description: 'Redis for the queues. Empty: 127.0.0.1:6379 if it answers, else a private redis-server started under dataDir.',
  },
  redisWaitSeconds: {
    env: 'METASERVER_REDIS_WAIT_SECONDS',
    kind: 'int',
    min: 0,
    description:
      "At start, how long to wait for REDIS_URL's Redis while it does not answer yet (refused, unreachable, loading its data); 0 gives up at once. Refused credentials, permissions or TLS fail at once.",
  },
  redisCluster: {
    env: 'METASERVER_REDIS_CLUSTER',
    kind: 'string',
    description:
      "Whether REDIS_URL names a node of a Redis Cluster: auto asks the node at start (INFO cluster), yes or no say so (a cluster node with no, or a single Redis with yes, is refused). In a cluster each server's queue has a hash slot of its own.",
    problem: (value: string) => (['auto', 'yes', 'no'].includes(value) ? null : 'must be auto, yes or no'),
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    kind: 'string',
    description: 'PostgreSQL connection string. Empty: embedded PGlite under dataDir (one process only; set this to scale out).',
  },
  adminToken: {
    env: 'METASERVER_ADMIN_TOKEN',
    kind: 'string',
    description: 'The organiser token. Empty: one is generated at first start, printed once, and only its hash is kept.',
  },
  dataDir: { env: 'METASERVER_DATA_DIR', kind: 'string', description: 'Where PGlite and the private Redis keep their files.' },
  pgliteDiskReserveMb: {
    env: 'METASERVER_PGLITE_DISK_RESERVE_MB',
    kind: 'int',
    min: 20,
    description:
      "Free space (MB) PGlite's data directory keeps: below it writes are refused (507 database_disk_full; reads still work) until space is freed, because PGlite meeting a full disk while starting its next 16 MB WAL segment hangs for good. At least a segment and room for the writes of a moment.",
  },
  logLevel: { env: 'LOG_LEVEL', kind: 'level', description: 'pino log level: fatal, error, warn, info, debug, trace or silent.' },
  openTeamRegistration: {
    env: 'METASERVER_OPEN_REGISTRATION',
    kind: 'bool',
    description: 'true: anyone may register a team; false: only the organiser (admin token) may.',
  },
  publicUrlsOnly: {
    env: 'METASERVER_PUBLIC_URLS_ONLY',
    kind: 'bool',
    description: 'true: refuse annotation-server URLs on private and loopback addresses (for a public deployment).',
  },
  maxAnswerBytes: {
    env: 'METASERVER_MAX_ANSWER_BYTES',
    kind: 'int',
    min: 1024,
    description: 'Largest answer read from an annotation server; more is a failure.',
  },
  maxArticleBytes: {
    env: 'METASERVER_MAX_ARTICLE_BYTES',
    kind: 'int',
    min: 1024,
    description: 'Largest article text an organiser may load into a challenge (UTF-8 bytes).',
  },
  maxOnDemandArticleBytes: {
    env: 'METASERVER_MAX_ONDEMAND_ARTICLE_BYTES',
    kind: 'int',
    min: 1024,
    description:
      'Largest on-demand article (POST /api/articles, open to anyone) in UTF-8 bytes; the whole request may be a few times that, for JSON escapes. Full-text articles are rarely over 1 MB as text.',
  },
  onDemandPendingPerClient: {
    env: 'METASERVER_ONDEMAND_PENDING_PER_CLIENT',
    kind: 'int',
    min: 1,
    description:
      'On-demand articles one client (a team, or an address) may have waiting for the live servers; one more gets 429 with Retry-After.',
  },
  onDemandPendingTotal: {
    env: 'METASERVER_ONDEMAND_PENDING_TOTAL',
    kind: 'int',
    min: 1,
    description: 'On-demand articles waiting for the live servers from all clients together; one more gets 503 with Retry-After.',
  },
  cacheMaxBytes: {
    env: 'METASERVER_CACHE_MAX_BYTES',
    kind: 'int',
    min: 0,
    description:
      'Most bytes each in-memory cache may hold: the article texts kept for dispatch, the request bodies built from them, article responses and server status responses (so at most four times this in all).',
  },
  bodyLimitBytes: {
    env: 'METASERVER_BODY_LIMIT_BYTES',
    kind: 'int',
    min: 1024,
    description: 'Largest HTTP request body (bulk article loads, gold files).',
  },
  checkTimeoutSeconds: {
    env: 'METASERVER_CHECK_TIMEOUT_SECONDS',
    kind: 'int',
    min: 1,
    description: 'Deadline of the setup check call made at registration and on demand.',
  },
  submitRateLimitPerMinute: {
    env: 'METASERVER_SUBMIT_RATE_LIMIT',
    kind: 'int',
    min: 1,
    description:
      'On-demand article submissions and team registrations allowed per client and minute (a team by its token, anyone else by address; IPv6 by /64).',
  },
  trustProxy: {
    env: 'METASERVER_TRUST_PROXY',
    kind: 'string',
    description:
      'Reverse proxies whose X-Forwarded-For header names the client (comma-separated addresses, CIDR ranges, or loopback, linklocal, uniquelocal). Empty: the header is ignored and every client is the address it connects from.',
    problem: proxyListProblem,
  },
  statusCacheMs: {
    env: 'METASERVER_STATUS_CACHE_MS',
    kind: 'int',
    min: 0,
    description:
      "How long a server's status response (progress, timing, errors) and an article's response are reused per caller; once half of it has passed, the next request starts computing them again in the background and is answered with what is kept, so polls never wait for that; a change made through the same API process drops them at once (0: every request). /healthz's judgement of dispatch's progress is kept as long.",
  },
  queuePrefix: {
    env: 'METASERVER_QUEUE_PREFIX',
    kind: 'string',
    description:
      "Prefix of every Redis key. Empty: metaserver-<the installation's id>, an id made with the database and shared by every process using it, so installations sharing one Redis never touch each other's jobs.",
  },
  reconcileIntervalMs: {
    env: 'METASERVER_RECONCILE_INTERVAL_MS',
    kind: 'int',
    min: 100,
    description:
      'How often each process brings the queues in line with the database (articles stored but never queued, pause flags, jobs lost by Redis); also done at start and whenever Redis comes back.',
  },
  dispatchWindow: {
    env: 'METASERVER_DISPATCH_WINDOW',
    kind: 'int',
    min: 1,
    description:
      "Jobs Redis holds per annotation server at most: max(this, 4 × the server's concurrency). The rest of a corpus waits in the database and moves into Redis as answers settle, so Redis stays the same size for a thousand articles or a million.",
  },
  lockDurationMs: {
    env: 'METASERVER_LOCK_DURATION_MS',
    kind: 'int',
    min: 500,
    description: "How long a worker holds a job between lock renewals; a killed worker's jobs are retried after about this long.",
  },
  stalledIntervalMs: {
    env: 'METASERVER_STALLED_INTERVAL_MS',
    kind: 'int',
    min: 500,
    description: 'How often workers look for jobs of killed workers.',
  },
  serverSyncIntervalMs: {
    env: 'METASERVER_SERVER_SYNC_INTERVAL_MS',
    kind: 'int',
    min: 100,
    description:
      'How often a worker process re-reads the list of annotation servers (changes are also announced over Redis) and renews its heartbeat; a worker process silent for three intervals no longer counts when the servers are shared out between worker processes.',
  },
  uniprotIndex: {
    env: 'METASERVER_UNIPROT_INDEX',
    kind: 'string',
    description: 'A UniProt release index built with `metaserver uniprot build`. Empty: accessions are checked against the pattern only.',
  },
  shutdownGraceMs: {
    env: 'METASERVER_SHUTDOWN_GRACE_MS',
    kind: 'int',
    min: 0,
    description:
      'On SIGTERM, how long requests in flight may run on; those still running are then handed back to the queue for another worker.',
  },
  databaseWriteRetries: {
    env: 'METASERVER_DB_WRITE_RETRIES',
    kind: 'int',
    min: 0,
    description:
      'How often a dispatch write is retried (back-off from 0.1 s, doubling, at most 5 s) when the database connection fails, e.g. while PostgreSQL restarts.',
  },
  callbackMaxAttempts: {
    env: 'METASERVER_CALLBACK_MAX_ATTEMPTS',
    kind: 'int',
    min: 1,
    description: "Tries to POST an on-demand article's callbackUrl once the article is done, before giving up.",
  },
  callbackRetryDelayMs: {
    env: 'METASERVER_CALLBACK_RETRY_DELAY_MS',
    kind: 'int',
    min: 10,
    description: 'Back-off before the second callback try; it doubles for each further try (1 s, 2 s, 4 s, … by default).',
  },
  callbackTimeoutMs: {
    env: 'METASERVER_CALLBACK_TIMEOUT_MS',
    kind: 'int',
    min: 100,
    description: 'Deadline of one callback POST (connect, send and answer).',
  },
  workerHeartbeatFile: {
    env: 'METASERVER_WORKER_HEARTBEAT_FILE',
    kind: 'string',
    description:
      'A file a worker process touches every serverSyncIntervalMs while Redis and the database answer; `metaserver health --worker` checks it is fresh (a container health check). Empty: none.',
  },
  publicUrl: {
    env: 'METASERVER_PUBLIC_URL',
    kind: 'string',
    description:
      "The address clients reach this server at, e.g. https://metaserver.example.org behind a reverse proxy (scheme and host, no path): used in Location headers, the OpenAPI servers, callbacks and the start banner. Empty: each request's own scheme and host, with X-Forwarded-Proto/Host believed from trustProxy addresses only.",
    problem: publicUrlProblem,
  },
  logFormat: {
    env: 'LOG_FORMAT',
    kind: 'string',
    description: 'auto: readable lines when standard output is a terminal, JSON lines otherwise; pretty or json to choose.',
    problem: (value: string) => (['auto', 'pretty', 'json'].includes(value) ? null : 'must be auto, pretty or json'),
  },
  leaseRequestsPerMinute: {
    env: 'METASERVER_LEASE_REQUESTS_PER_MINUTE',
    kind: 'int',
    min: 1,
    description:
      "Requests a pull server's agents may make to the lease routes (take, renew, answer, fail, give back) per client and minute.",
  },
  leasePollIntervalMs: {
    env: 'METASERVER_LEASE_POLL_INTERVAL_MS',
    kind: 'int',
    min: 10,
    description:
      'How often a waiting lease request (long-poll) looks for work again without being woken (jobs due after a back-off); work added, settled or given back wakes it at once.',
  },
  leasePollsPerTeam: {
    env: 'METASERVER_LEASE_POLLS_PER_TEAM',
    kind: 'int',
    min: 1,
    description:
      "Lease requests (long-polls) of one team's pull servers that may wait at once in one API process (each server also takes at most max(2 × its concurrency, 4)); more get 429.",
  },
  leaseSweepIntervalMs: {
    env: 'METASERVER_LEASE_SWEEP_INTERVAL_MS',
    kind: 'int',
    min: 50,
    description: 'How often leases past their deadline are recorded as timeouts and their articles offered again.',
  },
  leaseKeepAliveSeconds: {
    env: 'METASERVER_LEASE_KEEP_ALIVE_SECONDS',
    kind: 'int',
    min: 1,
    description:
      'How long a lease taken with keep-alive lives without being renewed: an agent that is gone (killed, cut off) frees its leases this soon, not at their deadline.',
  },
};

/** Every setting, its environment variable and what it does (also printed by `metaserver config`): the core ones, then each family's. */
export const SETTINGS = {
  ...CORE_SETTINGS,
  ...Object.fromEntries(
    Object.values(FAMILY_SETTINGS).flatMap((settings) =>
      Object.entries(settings).map(([key, setting]) => [key, { ...setting, kind: 'string', default: '' } satisfies SettingSpec]),
    ),
  ),
} as Record<keyof Config, SettingSpec>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = this.constructor.name;
  }
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function coerce(key: string, spec: SettingSpec, raw: unknown, source: string): unknown {
  const where = `setting "${key}" (${source})`;
  switch (spec.kind) {
    case 'string': {
      if (typeof raw !== 'string') throw new ConfigError(`${where} must be a string, got ${JSON.stringify(raw)}`);
      const problem = spec.problem?.(raw as never);
      if (problem) throw new ConfigError(`${where}: ${problem}`);
      return raw;
    }
    case 'level':
      if (typeof raw !== 'string' || !LEVELS.includes(raw)) {
        throw new ConfigError(`${where} must be one of ${LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
      }
      return raw;
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && /^(true|1|yes)$/i.test(raw)) return true;
      if (typeof raw === 'string' && /^(false|0|no)$/i.test(raw)) return false;
      throw new ConfigError(`${where} must be true or false, got ${JSON.stringify(raw)}`);
    case 'int': {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw new ConfigError(`${where} must be an integer, got ${JSON.stringify(raw)}`);
      if (spec.min !== undefined && n < spec.min) throw new ConfigError(`${where} must be at least ${spec.min}, got ${n}`);
      return n;
    }
  }
}

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`cannot read the configuration file ${path}: ${(err as Error).message}`);
  }
}

/** Builds the configuration from the default file, an optional override file, the environment and explicit overrides (tests). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const layers: Array<[string, Record<string, unknown>]> = [
    ['config/default.json', readJson(join(PROJECT_ROOT, 'config', 'default.json'))],
  ];
  if (env.METASERVER_CONFIG) layers.push([env.METASERVER_CONFIG, readJson(resolve(env.METASERVER_CONFIG))]);
  const out: Record<string, unknown> = {};
  for (const [source, values] of layers) {
    for (const [key, raw] of Object.entries(values)) {
      const spec = SETTINGS[key as keyof Config];
      if (!spec) throw new ConfigError(`unknown setting "${key}" in ${source}; known settings: ${Object.keys(SETTINGS).join(', ')}`);
      out[key] = coerce(key, spec, raw, source);
    }
  }
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') out[key] = coerce(key, spec, raw, `environment variable ${spec.env}`);
  }
  for (const [key, raw] of Object.entries(overrides)) {
    const spec = SETTINGS[key as keyof Config];
    if (!spec) throw new ConfigError(`unknown setting "${key}"`);
    out[key] = coerce(key, spec, raw, 'override');
  }
  for (const [key, spec] of Object.entries(SETTINGS)) {
    out[key] ??= spec.default;
    if (out[key] === undefined) throw new ConfigError(`setting "${key}" has no value; add it to config/default.json`);
  }
  const config = out as unknown as Config;
  config.dataDir = resolve(config.dataDir);
  return config;
}
