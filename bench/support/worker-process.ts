// A `metaserver worker` (or `api`, or `serve`) process sharing the bench's Redis and
// PostgreSQL schema, for bench/scale, bench/api and bench/inflight. It runs from the
// bundle, as `npm start` and a deployment run it (built here first if the sources changed):
// from the sources, tsx would add ~90 MB of RSS and its loader's CPU to every figure. It
// counts the answers it stored from its own debug log lines "answer stored" (nothing added
// to the code) and reads its CPU time from /proc/<pid>/stat. With `probe`, the bench can
// also read the worker's event-loop delay and memory (loop-probe.mjs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ADMIN, type Bench } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', 'bin', 'metaserver.js');
const PROBE = join(here, 'loop-probe.mjs');
const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
}

export interface ProbeReading {
  rss: number;
  heapUsed: number;
  p50: number;
  p99: number;
  max: number;
}

export interface WorkerProcess {
  pid: number;
  /** Where its API listens (`api` and `serve` only). */
  address?: string;
  stored: number;
  cpuAtReady: number;
  /** Whether it runs from the bundle (else from the sources through tsx: the bundle could not be built). */
  fromBundle: boolean;
  exited: Promise<void>;
  stop(): void;
  /** With `probe` only: restarts the event-loop delay histogram. */
  resetProbe(): void;
  /** With `probe` only: the worker's memory and event-loop delay since the last reset. */
  readProbe(): Promise<ProbeReading>;
}

/** Builds the bundle when the sources changed since it was built; false when it cannot be built. */
async function ensureBundle(): Promise<boolean> {
  const bundle = (await import(new URL('../../scripts/bundle.mjs', import.meta.url).href)) as {
    ensureBundle(): Promise<void>;
    freshBundle(): string | null;
  };
  await bundle
    .ensureBundle()
    .catch((error: Error) => console.error(`bench: could not build the bundle, the process runs from the sources (${error.message})`));
  return bundle.freshBundle() !== null;
}

/**
 * `command: 'serve'` starts the whole meta-server (API on a free port, and workers): the
 * one-process layout, as `npm start` runs it; `command: 'api'` the API alone.
 */
export async function startWorker(
  bench: Bench,
  opts: { probe?: boolean; env?: Record<string, string>; command?: 'worker' | 'api' | 'serve' } = {},
): Promise<WorkerProcess> {
  const command = opts.command ?? 'worker';
  const fromBundle = await ensureBundle();
  // BENCH_WORKER_CPU_PROF=dir: each worker process writes a CPU profile there when it stops.
  const profile = process.env.BENCH_WORKER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`] : [];
  const probe = opts.probe ? ['--import', PROBE] : [];
  const child = spawn(process.execPath, [...profile, ...probe, BIN, command], {
    env: {
      ...process.env,
      DATABASE_URL: bench.database.url!,
      REDIS_URL: bench.runtime.redis.url,
      METASERVER_QUEUE_PREFIX: bench.config.queuePrefix,
      METASERVER_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'debug',
      METASERVER_SERVER_SYNC_INTERVAL_MS: '500',
      PORT: '0',
      HOST: '127.0.0.1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'inherit', ...(opts.probe ? (['ipc'] as const) : [])],
  });
  const noProbe = () => {
    throw new Error('startWorker: this worker was started without { probe: true }');
  };
  const worker: WorkerProcess = {
    pid: child.pid!,
    stored: 0,
    cpuAtReady: 0,
    fromBundle,
    exited: new Promise((r) => child.once('exit', () => r())),
    stop: () => void child.kill('SIGTERM'),
    resetProbe: opts.probe ? () => void child.send({ probe: 'reset' }) : noProbe,
    readProbe: opts.probe
      ? () =>
          new Promise<ProbeReading>((resolve) => {
            const onMessage = (msg: ProbeReading & { probe?: string }) => {
              if (msg?.probe !== 'reading') return;
              child.off('message', onMessage);
              resolve(msg);
            };
            child.on('message', onMessage);
            child.send({ probe: 'read' });
          })
      : noProbe,
  };
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"answer stored"')) worker.stored++;
      else if (line.includes('metaserver worker is taking jobs') || line.includes('metaserver is serving on')) {
        worker.address = (JSON.parse(line) as { address?: string }).address;
        worker.cpuAtReady = cpuSeconds(child.pid!);
        resolve();
      }
    });
  });
  return worker;
}
