// A real meta-server for integration tests: the private test Redis (a queue prefix of its
// own per runtime), and PGlite in memory — or, when DATABASE_URL is set, real PostgreSQL in
// a schema of its own that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { decodeMethodResponse, encodeMethodCall, type DecodedResponse, type XmlRpcValue } from '../../src/xmlrpc/codec.ts';
import { newInstallationId, pgliteTemplateDump } from './pglite-template.ts';
import { setupRequests, type SetupRequests } from './setup-requests.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestDatabase {
  db: Database;
  /** For child processes: a DATABASE_URL that reaches the same schema, when PostgreSQL is used. */
  url?: string;
  drop(): Promise<void>;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * PostgreSQL when DATABASE_URL is set (unless PGlite is asked for), else PGlite in memory.
 * `ownDatabase`: on PostgreSQL, a database of its own instead of a schema, for a test that
 * measures what VACUUM leaves — another test's open transaction in the same database holds
 * back what VACUUM may remove, and only backends of the same database count.
 */
export async function openTestDatabase(
  kind: TestDatabaseKind = process.env.DATABASE_URL ? 'postgres' : 'pglite',
  options: { ownDatabase?: boolean } = {},
): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (kind === 'pglite' || !url) {
    // Loaded from the run's migrated template once it is ready: PGlite's initdb is most of a
    // new database's cost (test/support/pglite-template.ts). migrate() then has nothing to do.
    const template = pgliteTemplateDump();
    const db = await openPglite(undefined, template ? { loadDataDir: template } : {});
    await migrate(db);
    if (template) await newInstallationId(db);
    return { db, drop: async () => db.close() };
  }
  if (options.ownDatabase) return await openOwnPostgresDatabase(url);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ url, schema });
  await migrate(db);
  const schemaUrl = new URL(url);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    url: schemaUrl.toString(),
    async drop() {
      await db.query(`drop schema "${schema}" cascade`);
      await db.close();
    },
  };
}

/** A migrated PostgreSQL database of its own, beside DATABASE_URL's, dropped afterwards. */
async function openOwnPostgresDatabase(url: string): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres({ url, max: 1 });
  await admin.query(`create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const db = await openPostgres({ url: own.toString() });
  await migrate(db);
  return {
    db,
    url: own.toString(),
    async drop() {
      await db.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.close();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      redisUrl: inject('redisUrl'),
      adminToken: ADMIN_TOKEN,
      logLevel: (process.env.TEST_LOG_LEVEL as Config['logLevel']) ?? 'silent',
      queuePrefix: `t${randomBytes(5).toString('hex')}`,
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
      serverSyncIntervalMs: 200,
      checkTimeoutSeconds: 5,
      ...overrides,
    },
  );
}

/** Also the setup requests (setup-requests.ts): ms.team(), ms.challenge(), ms.articles(), ms.server(), ms.startServer(). */
export interface TestMetaserver extends Runtime, SetupRequests {
  config: Config;
  database: TestDatabase;
  request<T = any>(method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  /** One call of the BCMS read API (POST /xmlrpc): the answer as sent and decoded. */
  xmlrpc(method: string, params?: XmlRpcValue[]): Promise<{ status: number; xml: string; decoded: DecodedResponse }>;
  stop(): Promise<void>;
}

export async function startTestMetaserver(
  opts: { workers?: boolean; config?: Partial<Config>; database?: TestDatabase; databaseKind?: TestDatabaseKind; log?: Logger } = {},
): Promise<TestMetaserver> {
  const config = testConfig(opts.config);
  const database = opts.database ?? (await openTestDatabase(opts.databaseKind));
  const runtime = await createRuntime({
    config,
    log: opts.log ?? createLogger(config),
    db: database.db,
    api: true,
    workers: opts.workers ?? true,
  });
  const request: TestMetaserver['request'] = async (method, url, body, token) => {
    const res = await runtime.app!.inject({
      method: method as 'GET',
      url,
      payload: body === undefined ? undefined : (body as object),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, body: (res.body ? res.json() : undefined) as never };
  };
  return {
    ...runtime,
    config,
    database,
    request,
    ...setupRequests(request, config.adminToken),
    async xmlrpc(method, params = []) {
      const res = await runtime.app!.inject({
        method: 'POST',
        url: '/xmlrpc',
        headers: { 'content-type': 'text/xml' },
        payload: encodeMethodCall(method, params),
      });
      return { status: res.statusCode, xml: res.body, decoded: decodeMethodResponse(res.body) };
    },
    async stop() {
      await runtime.close();
      if (!opts.database) await database.drop();
    },
  };
}

/** Polls until check() returns a value (not undefined), or fails with what it last saw. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until a server has settled `n` articles (answered or failed for good), as its status page counts them. */
export async function serverSettled(ms: TestMetaserver, serverId: number, n: number, timeoutMs = 45_000): Promise<void> {
  await waitFor(
    `${n} answers of server ${serverId}`,
    async () => {
      const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, ADMIN_TOKEN);
      return res.body.progress.done + res.body.progress.failed === n ? true : undefined;
    },
    timeoutMs,
  );
}

/** Waits until an on-demand article is answered by every live server (its view answers 200, not 202). */
export async function articleAnswered(ms: TestMetaserver, articleId: string, timeoutMs = 45_000): Promise<unknown> {
  return await waitFor(
    `the answers to article ${articleId}`,
    async () => {
      const res = await ms.request('GET', `/api/articles/${articleId}`);
      return res.status === 200 ? res.body : undefined;
    },
    timeoutMs,
  );
}
