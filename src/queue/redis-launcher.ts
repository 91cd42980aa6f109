// Finds a Redis to use: REDIS_URL, else a Redis answering on 127.0.0.1:6379, else a
// private redis-server started as a child process with its data (append-only file on)
// under the data directory, else an error that says how to get Redis. The private one never
// outlives this process for long, and a start stops one an earlier run left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import { RedisUnavailableError } from './redis-errors.ts';
import { waitForRedis } from './redis-wait.ts';
import { decideCluster } from './redis-access.ts';
import { lockDataDir, PID_FILE, stopLeftoverRedis } from './data-dir-lock.ts';

export interface ResolvedRedis {
  url: string;
  /** A node of a Redis Cluster (METASERVER_REDIS_CLUSTER, decided at start): queues get a hash slot each. */
  cluster: boolean;
  source: 'REDIS_URL' | 'local' | 'private';
  /** The shell supervising the private redis-server (see startPrivateRedis). */
  supervisorPid?: number;
  /** Stops the private redis-server, if one was started. */
  stop(): Promise<void>;
}

export { RedisUnavailableError };

export const INSTALL_HINT =
  'metaserver needs Redis. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`; macOS: `brew install redis`) ' +
  'or point REDIS_URL at a running Redis, e.g. REDIS_URL=redis://127.0.0.1:6379.';

/**
 * Null when Redis at `url` answers PING; else why not. ioredis rejects a failed connect with
 * "Connection is closed." and reports the real cause (WRONGPASS, a TLS error, ECONNREFUSED)
 * only as an 'error' event, so the last such event is kept and preferred.
 */
async function probeRedis(url: string, timeoutMs = 1000): Promise<Error | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // Its INFO would warn on the console for a user without it; INFO's permission is checked later (redis-access.ts).
    enableReadyCheck: false,
  });
  let reported: Error | undefined;
  client.on('error', (err: Error) => (reported = err));
  try {
    await client.connect();
    const reply = await client.ping();
    return reply === 'PONG' ? null : new Error(`PING answered ${reply}`);
  } catch (err) {
    return reported ?? (err as Error);
  } finally {
    client.disconnect();
  }
}

export async function pingRedis(url: string, timeoutMs = 1000): Promise<boolean> {
  return (await probeRedis(url, timeoutMs)) === null;
}

/** A free TCP port on the loopback interface (bound, then released). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Runs redis-server under a small shell that stops it when this process goes away: the
 * shell reads its standard input, a pipe from this process, and the kernel closes that pipe
 * when this process ends however it ends — SIGKILL included, where no exit handler runs.
 * End of input: SIGTERM to Redis (it flushes its append-only file), wait, exit with its code.
 * A TERM, INT or HUP sent to the shell itself is passed on to Redis too.
 */
const SUPERVISOR = `
exec 3<&0
redis-server "$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
{ read -r _ <&3; kill -TERM "$pid" 2>/dev/null; } &
reader=$!
wait "$pid"; code=$?
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; code=$?; done
kill "$reader" 2>/dev/null
exit "$code"`;

/** redis-server with `args`, under SUPERVISOR; stderr piped (to read why it failed) or ignored. */
export function spawnSupervisedRedis(args: string[], stderr: 'pipe' | 'ignore' = 'pipe'): ChildProcess {
  const child = spawn('/bin/sh', ['-c', SUPERVISOR, 'metaserver-redis', ...args], { stdio: ['pipe', 'ignore', stderr] });
  child.stdin!.on('error', () => {}); // the pipe only carries its end; nothing is written
  return child;
}

/** Ends a supervised redis-server's input: the shell stops Redis and exits; resolves then. */
export async function stopSupervisedRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin!.end();
  await exited;
}

/**
 * Starts a redis-server of this installation's own on its data directory: the directory's
 * lock is taken first, a redis-server an earlier run left on it is stopped, and the new one
 * stops when this process ends (see SUPERVISOR).
 */
export async function startPrivateRedis(dataDir: string, log: Logger): Promise<ResolvedRedis> {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dir, log);
  let child: ChildProcess | undefined;
  try {
    await stopLeftoverRedis(dir, log);
    const port = await freePort();
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--protected-mode',
      'yes',
      '--pidfile',
      join(dir, PID_FILE),
    ];
    let stderr = '';
    const started = spawnSupervisedRedis(args);
    child = started;
    started.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (err) => reject(new RedisUnavailableError(`${INSTALL_HINT} (starting redis-server failed: ${err.message})`)));
      started.once('exit', (code) => {
        const why =
          code === 127
            ? `${INSTALL_HINT} (redis-server was not found)`
            : `the private redis-server exited at once with code ${code}; its data is in ${dir}`;
        reject(new RedisUnavailableError(`${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
      });
    });
    failed.catch(() => {});
    const url = `redis://127.0.0.1:${port}`;
    const ready = (async () => {
      for (let i = 0; i < 100; i++) {
        if (await pingRedis(url, 200)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new RedisUnavailableError(`the private redis-server on port ${port} did not answer within 5 s`);
    })();
    await Promise.race([ready, failed]);
    log.info({ redis: url, dir }, 'started a private redis-server (append-only persistence on)');
    return {
      url,
      cluster: false,
      source: 'private',
      supervisorPid: started.pid,
      async stop() {
        await stopSupervisedRedis(started);
        unlock();
      },
    };
  } catch (err) {
    child?.stdin?.end();
    unlock();
    throw err;
  }
}

export async function resolveRedis(
  opts: { redisUrl: string; dataDir: string; redisWaitSeconds: number; redisCluster?: string },
  log: Logger,
): Promise<ResolvedRedis> {
  const none = async () => {};
  if (opts.redisUrl) {
    // Not up yet (starting beside this process, loading its data): waited for, up to the setting.
    await waitForRedis(opts.redisUrl, opts.redisWaitSeconds, (url) => probeRedis(url, 3000), log);
    const cluster = await decideCluster(opts.redisUrl, opts.redisCluster ?? 'auto', log);
    return { url: opts.redisUrl, cluster, source: 'REDIS_URL', stop: none };
  }
  const local = 'redis://127.0.0.1:6379';
  if (await pingRedis(local, 500)) {
    log.info({ redis: local }, 'using the local Redis');
    return { url: local, cluster: await decideCluster(local, opts.redisCluster ?? 'auto', log), source: 'local', stop: none };
  }
  return await startPrivateRedis(opts.dataDir, log);
}
