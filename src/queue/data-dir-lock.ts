// Who owns a data directory (the private Redis's here, PGlite's in db/pglite.ts). A lock file names the meta-server process
// using it, and redis-server's own pid file names the Redis serving it; a start finds what
// an earlier run left behind: a lock of a process that is gone is taken over, and a
// redis-server still running on the directory (its parent was killed before it could stop
// it) is stopped, so that one directory never has two Redis writing one append-only file.
import { execFileSync } from 'node:child_process';
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { RedisUnavailableError } from './redis-errors.ts';

const LOCK_FILE = 'metaserver.lock';
export const PID_FILE = 'redis.pid';

/**
 * The command line of a running process, or null when there is none (or only a zombie,
 * which nothing may have reaped yet). From /proc where there is one, else from ps.
 */
export function processCommand(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/^\d+ \(.*\) Z/s.test(stat)) return null;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return null;
  }
  try {
    const out = execFileSync('ps', ['-o', 'stat=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return out === '' || out.startsWith('Z') ? null : out.replace(/^\S+\s+/, '');
  } catch {
    return null; // ps exits 1 when there is no such process
  }
}

const readPid = (path: string): number | null => {
  try {
    const n = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
};

/** What a lock file says of its holder: pid on the first line (older locks have only that), then command and start time. */
export interface LockHolder {
  pid: number;
  command?: string;
  since?: string;
}

function readLock(path: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const [pidLine = '', command, since] = text.split('\n');
  const pid = Number.parseInt(pidLine.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, command: command?.trim() || undefined, since: since?.trim() || undefined };
}

/** How this process was started, as a person would type it (`metaserver serve`). */
function ownCommand(): string {
  const args = process.argv.slice(2);
  return ['metaserver', ...args].join(' ');
}

/** The directory is held by a live meta-server: the message names it and says what to do. */
export class DataDirInUseError extends Error {
  constructor(
    message: string,
    readonly holder: LockHolder,
  ) {
    super(message);
    this.name = 'DataDirInUseError';
  }
}

function describeHolder(holder: LockHolder): string {
  const parts = [`pid ${holder.pid}`];
  if (holder.command) parts.push(`\`${holder.command}\``);
  if (holder.since) parts.push(`since ${holder.since}`);
  return parts.join(', ');
}

export interface LockOptions {
  /** What the directory is, for the refusal (\`the private Redis\`, \`the PGlite database\`). */
  what: string;
  /** What to do instead, appended to the refusal. */
  advice: string;
  /** Told when a stale lock is taken over. */
  log?: Logger;
  /** Thrown instead of DataDirInUseError (the private Redis reports as Redis being unavailable). */
  refuse?: (message: string, holder: LockHolder) => Error;
}

/**
 * Takes the lock file at `path` for this process, or throws naming the live meta-server that
 * holds it (pid, command, since when) and what to do. A lock whose process is gone (killed)
 * is stale and taken over, with a log line. Returns the release function.
 */
export function takeLock(path: string, opts: LockOptions): () => void {
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n${ownCommand()}\n${new Date().toISOString()}\n`);
      closeSync(fd);
      return () => {
        if (readPid(path) === process.pid) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(path);
    const command = holder !== null && holder.pid !== process.pid ? processCommand(holder.pid) : null;
    // A pid reused by an unrelated process since the holder died is no holder.
    if (holder !== null && command !== null && /node|metaserver/.test(command)) {
      const message = `another metaserver (${describeHolder(holder)}) uses ${opts.what}; ${opts.advice}`;
      throw opts.refuse ? opts.refuse(message, holder) : new DataDirInUseError(message, holder);
    }
    opts.log?.warn(
      { lock: path, previous: holder ?? undefined },
      `taking over the lock of ${opts.what}: the process that held it (${holder ? describeHolder(holder) : 'unreadable lock'}) is gone`,
    );
    rmSync(path, { force: true });
  }
  throw new DataDirInUseError(`could not take the lock ${path}: other processes keep taking it`, { pid: 0 });
}

/**
 * Takes the private Redis directory's lock for this process, or throws naming the live
 * meta-server that holds it. A lock whose process is gone (killed) is stale and taken over.
 * Returns the release function.
 */
export function lockDataDir(dir: string, log?: Logger): () => void {
  return takeLock(join(dir, LOCK_FILE), {
    what: `the private Redis in ${dir}`,
    advice: 'stop it, or give this one a data directory of its own (METASERVER_DATA_DIR)',
    log,
    refuse: (message) => new RedisUnavailableError(message),
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function gone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (processCommand(pid) !== null) {
    if (Date.now() > end) return false;
    await sleep(50);
  }
  return true;
}

/** Stops a redis-server left running on the directory by an earlier run (call it holding the lock). */
export async function stopLeftoverRedis(dir: string, log: Logger): Promise<void> {
  const pidFile = join(dir, PID_FILE);
  const pid = readPid(pidFile);
  if (pid === null) return;
  const command = processCommand(pid);
  if (command === null || !command.includes('redis-server')) {
    rmSync(pidFile, { force: true }); // stale: that Redis is gone, the number may be someone else's
    return;
  }
  log.warn({ pid, dir }, 'a redis-server left behind by an earlier run is still serving the data directory; stopping it');
  process.kill(pid, 'SIGTERM'); // Redis flushes its append-only file and exits
  if (!(await gone(pid, 10_000))) {
    log.warn({ pid }, 'the left-behind redis-server did not stop within 10 s; killing it');
    process.kill(pid, 'SIGKILL');
    if (!(await gone(pid, 5_000)))
      throw new RedisUnavailableError(`a redis-server (pid ${pid}) left on ${dir} cannot be stopped; stop it by hand`);
  }
  rmSync(pidFile, { force: true });
}
