// What the deploy tests share: a meta-server command started as a real process with only
// the environment a container would give it, a fresh PostgreSQL schema, and an organiser's
// walk through the HTTP API (team, challenge, articles, an annotation server, start).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Database } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { waitFor } from '../support/runtime.ts';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | string | null>;
  readonly output: string[];
  kill(signal?: NodeJS.Signals): void;
}

/** The log line each long-running command writes once it is ready. */
export const READY = { api: 'metaserver is serving on', worker: 'metaserver worker is taking jobs' } as const;

/** What a process inherits on this machine that a container also has: a PATH and a HOME. */
export function baseEnvironment(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
}

/** argv[0] `node` is this machine's node (the image's Node version is tested by CI's Node). */
export function startService(
  name: string,
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; ready?: string },
): Promise<ServiceProcess> {
  const [command, ...args] = argv;
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const service: ServiceProcess = { name, child, exited, output, kill: (signal = 'SIGTERM') => void child.kill(signal) };
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      output.push(line);
      if (opts.ready && line.includes(opts.ready)) resolve(service);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (opts.ready) reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output.slice(-20).join('\n')}`));
      else resolve(service);
    });
    if (!opts.ready) child.once('spawn', () => resolve(service));
  });
}

/** Stops them all (SIGKILL for whatever does not stop on SIGTERM within 10 s). */
export async function stopAll(services: ServiceProcess[]): Promise<void> {
  await Promise.all(
    services.map(async (s) => {
      if (s.child.exitCode !== null || s.child.signalCode !== null) return;
      s.kill('SIGTERM');
      const timer = setTimeout(() => s.kill('SIGKILL'), 10_000);
      await s.exited;
      clearTimeout(timer);
    }),
  );
}

export interface FreshSchema {
  /** DATABASE_URL for the processes: the server's, with this schema as the search path. */
  url: string;
  /** A connection of the test's own to the same schema, to look at what was stored. */
  db: Database;
  drop(): Promise<void>;
}

/** An empty schema on the DATABASE_URL server: the processes migrate it themselves. */
export async function freshSchema(serverUrl: string): Promise<FreshSchema> {
  const schema = `d_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ url: serverUrl, schema, max: 2 });
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.exec(`drop schema "${schema}" cascade`);
      await db.close();
    },
  };
}

/** The HTTP API of a running `api` process, as an organiser and a team use it. */
export class ApiClient {
  constructor(
    readonly base: string,
    private readonly adminToken: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, token: string = this.adminToken): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async expectOk<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const res = await this.call<T>(method, path, body, token);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /**
   * A team, a challenge (INT) with these articles, an annotation server registered (its
   * setup check passes) and started. Returns the server's id and the articles' ids.
   */
  async loadChallenge(
    slug: string,
    articles: Array<{ id: string; text: string }>,
    annotatorUrl: string,
  ): Promise<{ serverId: number; team: string; ids: Record<string, string> }> {
    const team = (await this.expectOk<{ token: string }>('POST', '/api/teams', { name: `Team ${slug}`, contact: 'team@example.org' }))
      .token;
    await this.expectOk('POST', '/api/challenges', { slug, name: slug, tasks: ['INT'], timeoutSeconds: 60 });
    const ids = (await this.expectOk<{ ids: Record<string, string> }>('POST', `/api/challenges/${slug}/articles`, { articles })).ids;
    const server = await this.expectOk<{ id: number }>(
      'POST',
      `/api/challenges/${slug}/servers`,
      { name: `annotator-${slug}`, url: annotatorUrl, tasks: ['INT'] },
      team,
    );
    await this.expectOk('POST', `/api/servers/${server.id}/start`, undefined, team);
    return { serverId: server.id, team, ids };
  }

  /** Waits until the server has settled `count` articles (done). */
  async waitForDone(serverId: number, team: string, count: number, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      `${count} articles answered`,
      async () => {
        const res = await this.call<{ progress: { done: number } }>('GET', `/api/servers/${serverId}`, undefined, team);
        return res.body?.progress?.done === count ? true : undefined;
      },
      timeoutMs,
    );
  }
}

/** The stored answers per article of one server: exactly-once means every count is 1. */
export async function answerCounts(db: Database, serverId: number): Promise<Record<string, number>> {
  const rows = await db.query<{ article_id: string; n: number }>(
    'select article_id, count(*)::int as n from answers where server_id = $1 group by article_id',
    [serverId],
  );
  return Object.fromEntries(rows.map((r) => [String(r.article_id), r.n]));
}
