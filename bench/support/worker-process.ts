// A `metaserver worker` process sharing the bench's Redis and PostgreSQL schema (the bench
// process runs the API only), for bench/scale and bench/api. It counts the answers it stored
// from its own debug log lines "answer stored" (nothing added to the code) and reads its CPU
// time from /proc/<pid>/stat.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ADMIN, type Bench } from './harness.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'metaserver.js');
const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
}

export interface WorkerProcess { pid: number; stored: number; cpuAtReady: number; exited: Promise<void>; stop(): void }

export async function startWorker(bench: Bench): Promise<WorkerProcess> {
  // BENCH_WORKER_CPU_PROF=dir: each worker process writes a CPU profile there when it stops.
  const profile = process.env.BENCH_WORKER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, BIN, 'worker'], {
    env: {
      ...process.env, DATABASE_URL: bench.database.url!, REDIS_URL: bench.runtime.redis.url, METASERVER_QUEUE_PREFIX: bench.config.queuePrefix,
      METASERVER_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'debug', METASERVER_SERVER_SYNC_INTERVAL_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const worker: WorkerProcess = {
    pid: child.pid!, stored: 0, cpuAtReady: 0,
    exited: new Promise((r) => child.once('exit', () => r())),
    stop: () => void child.kill('SIGTERM'),
  };
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"answer stored"')) worker.stored++;
      else if (line.includes('metaserver worker is taking jobs')) {
        worker.cpuAtReady = cpuSeconds(child.pid!);
        resolve();
      }
    });
  });
  return worker;
}
