// A worker process has no HTTP port to probe, so it shows it is alive with a file: touched
// every interval while Redis and the database answer it. `metaserver health --worker` (a
// container health check, docker-compose.yml) reads the file's age: three intervals
// without a touch — the rule by which the other worker processes stop counting this one
// (dispatch/worker-pool.ts) — and it is unhealthy.
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';

/** How many intervals old the file may be and the worker still count as alive. */
const STALE_AFTER_INTERVALS = 3;

export interface HeartbeatFile {
  stop(): void;
}

export function startHeartbeatFile(file: string, intervalMs: number, alive: () => Promise<boolean>): HeartbeatFile {
  let running = false;
  const beat = async (): Promise<void> => {
    if (running) return; // a check still waiting for Redis or the database: not alive meanwhile
    running = true;
    try {
      if (!(await alive())) return;
      const now = new Date();
      try {
        utimesSync(file, now, now);
      } catch {
        writeFileSync(file, `${process.pid}\n`);
      }
    } catch {
      // not alive: the file ages, and the health check says so
    } finally {
      running = false;
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      rmSync(file, { force: true }); // a stopped worker is not healthy
    },
  };
}

/** Why the worker behind this file is not healthy, or null when it is. */
export function heartbeatProblem(file: string, intervalMs: number, now = Date.now()): string | null {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return `no heartbeat file ${file}: the worker is not running, has not started yet, or METASERVER_WORKER_HEARTBEAT_FILE differs between it and this check`;
  }
  const age = now - mtimeMs;
  const limit = STALE_AFTER_INTERVALS * intervalMs;
  if (age > limit)
    return `the heartbeat file ${file} is ${Math.round(age / 1000)} s old (more than ${limit / 1000} s): the worker does not reach Redis or the database, or hangs`;
  return null;
}
