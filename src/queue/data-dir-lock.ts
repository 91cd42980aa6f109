// Who owns the private Redis's data directory. A lock file names the meta-server process
// using it, and redis-server's own pid file names the Redis serving it; a start finds what
// an earlier run left behind: a lock of a process that is gone is taken over, and a
// redis-server still running on the directory (its parent was killed before it could stop
// it) is stopped, so that one directory never has two Redis writing one append-only file.
import { execFileSync } from 'node:child_process';
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { RedisUnavailableError } from './redis-errors.ts';

export const LOCK_FILE = 'metaserver.lock';
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

/**
 * Takes the directory's lock for this process, or throws naming the live meta-server that
 * holds it. A lock whose process is gone (killed) is stale and taken over. Returns the
 * release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        if (readPid(path) === process.pid) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPid(path);
    const command = holder !== null && holder !== process.pid ? processCommand(holder) : null;
    // A pid reused by an unrelated process since the holder died is no holder.
    if (holder !== null && command !== null && /node|metaserver/.test(command)) {
      throw new RedisUnavailableError(
        `another metaserver (pid ${holder}) uses the private Redis in ${dir}; stop it, or give this one a data directory of its own (METASERVER_DATA_DIR)`,
      );
    }
    rmSync(path, { force: true });
  }
  throw new RedisUnavailableError(`could not take the lock ${path}: other processes keep taking it`);
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
    if (!(await gone(pid, 5_000))) throw new RedisUnavailableError(`a redis-server (pid ${pid}) left on ${dir} cannot be stopped; stop it by hand`);
  }
  rmSync(pidFile, { force: true });
}
