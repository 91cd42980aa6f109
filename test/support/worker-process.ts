// A real `metaserver worker` process (the scale-out command) or `metaserver api` process,
// sharing the test's Redis queue prefix and PostgreSQL schema. Used to kill them for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.ts';
import { ADMIN_TOKEN } from './runtime.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'metaserver.js');

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
  /** Every line the process wrote to stdout so far (pino JSON), to wait for what it logged. */
  readonly lines: string[];
  kill(signal?: NodeJS.Signals): void;
}

/** extraEnv: further settings for this process only (e.g. METASERVER_SHUTDOWN_GRACE_MS). */
export async function startWorkerProcess(
  config: Config,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<WorkerProcess> {
  return await startServiceProcess('worker', config, databaseUrl, extraEnv);
}

const READY: Record<'worker' | 'api', string> = { worker: 'metaserver worker is taking jobs', api: 'metaserver is serving on' };

/** `metaserver worker` or `metaserver api` (give the latter a PORT in extraEnv). */
export async function startServiceProcess(
  mode: 'worker' | 'api',
  config: Config,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, mode], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: config.redisUrl,
      METASERVER_QUEUE_PREFIX: config.queuePrefix,
      METASERVER_ADMIN_TOKEN: ADMIN_TOKEN,
      METASERVER_LOCK_DURATION_MS: String(config.lockDurationMs),
      METASERVER_STALLED_INTERVAL_MS: String(config.stalledIntervalMs),
      METASERVER_SERVER_SYNC_INTERVAL_MS: String(config.serverSyncIntervalMs),
      METASERVER_MAX_ANSWER_BYTES: String(config.maxAnswerBytes),
      METASERVER_SHUTDOWN_GRACE_MS: String(config.shutdownGraceMs),
      METASERVER_DB_WRITE_RETRIES: String(config.databaseWriteRetries),
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const lines: string[] = [];
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${mode} process exited with ${code} before it was ready: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.includes(READY[mode])) resolve();
    });
  });
  return { child, exited, lines, kill: (signal = 'SIGTERM') => void child.kill(signal) };
}
