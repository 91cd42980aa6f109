// CPU time of the local PostgreSQL and Redis servers, read from /proc (Linux), so a bench can
// say what a phase cost the whole machine and not only its own process: on a small machine
// the database and Redis share the cores with the meta-server, and their work per answer
// is part of what bounds its rate. Counts every process named `postgres` or `redis-server`
// the bench can see, with the time of exited children (PostgreSQL backends that ended
// during the phase are counted in the postmaster's). Null where /proc is not there.
import { readdirSync, readFileSync } from 'node:fs';

export interface ServiceCpu {
  postgres: number;
  redis: number;
}

const NAMES: Record<string, keyof ServiceCpu> = { postgres: 'postgres', 'redis-server': 'redis' };

/** USER_HZ: 100 on every Linux this runs on (/proc does not publish it). */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU used so far by the local database and Redis processes, or null. */
export function serviceCpu(): ServiceCpu | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const total: ServiceCpu = { postgres: 0, redis: 0 };
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces, so split after the last ')'.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const which = NAMES[comm];
    if (!which) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14–17 of the whole line, 12–15 after comm and state.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    total[which] += ticks / TICKS_PER_SECOND;
  }
  return total;
}

/** CPU seconds the services used between two readings. */
export function serviceCpuSince(before: ServiceCpu | null): ServiceCpu | null {
  const now = serviceCpu();
  if (!before || !now) return null;
  return { postgres: now.postgres - before.postgres, redis: now.redis - before.redis };
}
