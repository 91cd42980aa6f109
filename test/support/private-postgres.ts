// A PostgreSQL server of a test's own (initdb in a temporary directory, on a free loopback
// port), for tests that change the server's own settings — read-only, for one — which the
// suite's shared PostgreSQL must never see. PostgreSQL refuses to run as root: when this
// process is root, its tools run as the `postgres` OS user, who is given the directory.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/queue/redis-launcher.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { TestDatabase } from './runtime.ts';

const PG_ROOT = '/usr/lib/postgresql';

/** The directory of the newest installed PostgreSQL's programs, or undefined when there is none. */
export function postgresBinaries(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : undefined;
}

export interface PrivatePostgres {
  /** A migrated database on it, as the meta-server opens one. */
  database: TestDatabase;
  /** Runs SQL as the superuser on a connection of its own (which stays writable whatever the server's defaults). */
  admin(sql: string): Promise<void>;
  /** The server's log: what it refused, and why. */
  log(): string;
  stop(): Promise<void>;
}

function run(bin: string, program: string, args: string[]): string {
  const asRoot = userInfo().uid === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server programs are installed');
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-private-pg-'));
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  run(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  run(bin, 'pg_ctl', ['-D', data, '-l', logFile, '-o', options, '-w', 'start']);
  const stop = () => run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  try {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const db = await openPostgres({ url });
    await migrate(db);
    const admin = await openPostgres({ url, max: 1 });
    // Its own session's setting outlives a reload of the server's: it can always turn read-only off again.
    await admin.query('set default_transaction_read_only = off');
    return {
      database: { db, url, drop: async () => db.close() },
      admin: async (sql) => void (await admin.query(sql)),
      log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      async stop() {
        await db.close().catch(() => {});
        await admin.close().catch(() => {});
        stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
