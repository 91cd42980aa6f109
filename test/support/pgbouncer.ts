// Debian's PgBouncer in front of the suite's PostgreSQL, running the configuration the docs
// show (docs/deploy/pgbouncer.ini) with its port, PostgreSQL, userlist, log and pid file
// filled in: a temporary directory of its own, in the foreground as a child process, on a
// free loopback port. PgBouncer refuses to run as root: when this process is root, it is
// started with `-u postgres` and that user is given the directory.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config.ts';
import { refusedPort } from './faulty-servers.ts';

const PGBOUNCER_INI = join(PROJECT_ROOT, 'docs', 'deploy', 'pgbouncer.ini');

/** Debian installs it in /usr/sbin, which is not on every user's PATH. */
const PGBOUNCER = existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer';

/** Whether PgBouncer is installed here. */
export function pgbouncerInstalled(): boolean {
  if (existsSync(PGBOUNCER)) return true;
  try {
    execFileSync(PGBOUNCER, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface PgBouncer {
  /** postgres://USER:PASSWORD@127.0.0.1:<port>/metaserver — the file's database, through PgBouncer. */
  url: string;
  /** The admin console (database `pgbouncer`), as the file's stats user. */
  adminUrl: string;
  log(): string;
  stop(): Promise<void>;
}

interface Filled {
  port: number;
  /** host, port and dbname of the PostgreSQL database behind it. */
  server: { host: string; port: string; dbname: string };
  user: string;
  dir: string;
}

/** The file with this run's port, PostgreSQL, user and paths; fails if the file no longer has what it fills in. */
function filledIni(ini: string, at: Filled): string {
  const file = (name: string) => join(at.dir, name);
  // pool_mode and auth_type are kept as they are: what the test is about must still be there.
  const replacements: Array<[RegExp, string]> = [
    [
      /^metaserver = host=\S+ port=\d+ dbname=metaserver$/m,
      `metaserver = host=${at.server.host} port=${at.server.port} dbname=${at.server.dbname}`,
    ],
    [/^pool_mode = transaction$/m, 'pool_mode = transaction'],
    [/^listen_addr = .*$/m, 'listen_addr = 127.0.0.1'],
    [/^listen_port = 6432$/m, `listen_port = ${at.port}`],
    [/^unix_socket_dir = .*$/m, `unix_socket_dir = ${at.dir}`],
    [/^auth_type = scram-sha-256$/m, 'auth_type = scram-sha-256'],
    [/^auth_file = .*$/m, `auth_file = ${file('userlist.txt')}`],
    [/^stats_users = metaserver$/m, `stats_users = ${at.user}`],
    [/^logfile = .*$/m, `logfile = ${file('pgbouncer.log')}`],
    [/^pidfile = .*$/m, `pidfile = ${file('pgbouncer.pid')}`],
  ];
  let out = ini;
  for (const [pattern, value] of replacements) {
    if (!pattern.test(out)) throw new Error(`${PGBOUNCER_INI} no longer has ${pattern}; update the test with it`);
    out = out.replace(pattern, value);
  }
  return out;
}

/**
 * PgBouncer in front of `databaseUrl`'s server, for its database `dbname`. The userlist holds
 * the URL's user with its password (a random one when the server trusts it without), which
 * PgBouncer checks clients against (scram-sha-256, as the file says) and logs in with.
 */
export async function startPgBouncer(databaseUrl: string, dbname: string): Promise<PgBouncer> {
  const server = new URL(databaseUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = server.password ? decodeURIComponent(server.password) : randomBytes(12).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-pgbouncer-'));
  const port = await refusedPort();
  const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;
  writeFileSync(join(dir, 'userlist.txt'), `${quoted(user)} ${quoted(password)}\n`);
  const ini = filledIni(readFileSync(PGBOUNCER_INI, 'utf8'), {
    port,
    server: { host: server.hostname, port: server.port || '5432', dbname },
    user,
    dir,
  });
  writeFileSync(join(dir, 'pgbouncer.ini'), ini);
  const asRoot = userInfo().uid === 0;
  if (asRoot) giveTo('postgres', dir);
  const args = [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // PgBouncer's safe shutdown: waits for the transactions in flight
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it listens; one that exits first (a bad configuration) is reported with its log.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const why = `pgbouncer exited ${child.exitCode}: ${stderr}${log()}`;
      await stop();
      throw new Error(why);
    }
    if (/listening on 127\.0\.0\.1:/.test(log())) break;
    if (Date.now() > deadline) {
      const why = `pgbouncer did not start in 10 s: ${stderr}${log()}`;
      await stop();
      throw new Error(why);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  return { url: `${base}/metaserver`, adminUrl: `${base}/pgbouncer`, log, stop };
}

/** The directory and what is in it, owned by `owner` (PgBouncer runs as that user). */
function giveTo(owner: string, dir: string): void {
  const uid = Number(execFileSync('id', ['-u', owner], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', owner], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) chownSync(join(dir, name), uid, gid);
}
