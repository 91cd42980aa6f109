// A redis-server of a test's own (append-only file on, in a temporary directory, on a free
// loopback port) that the test may stop and start again: the suite's shared Redis is never
// restarted. Also used by the soak bench. It stops with the process that started it, even
// one killed (the meta-server's supervisor, src/queue/redis-launcher.ts).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, INSTALL_HINT, pingRedis, spawnSupervisedRedis, stopSupervisedRedis } from '../../src/queue/redis-launcher.ts';

export interface PrivateRedis {
  url: string;
  /** Stops it (SIGTERM: the append-only file is flushed) and starts it again on the same port and files. */
  restart(): Promise<void>;
  /** Stops it, keeping its port and files for a later restart(). */
  halt(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers (a hung Redis); thaw() lets it go on. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-private-redis-'));
  const pidFile = join(dir, 'redis.pid');
  let child: ChildProcess | undefined;
  // Supervised as the meta-server's own: it stops with the test process, even one killed.
  const signal = (sig: NodeJS.Signals) => {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (pid > 0) process.kill(pid, sig);
  };

  const launch = async (): Promise<void> => {
    const started = spawnSupervisedRedis(
      ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--save', '', '--dir', dir, '--pidfile', pidFile],
      'ignore',
    );
    child = started;
    let spawnError: Error | undefined;
    started.once('error', (err) => (spawnError = err));
    for (let i = 0; i < 200; i++) {
      if (spawnError) throw new Error(`${INSTALL_HINT} (starting redis-server failed: ${spawnError.message})`);
      if (started.exitCode !== null) throw new Error(`${INSTALL_HINT} (redis-server exited with code ${started.exitCode})`);
      // While it loads the append-only file Redis answers LOADING, not PONG: wait until it is really up.
      if (await pingRedis(`redis://127.0.0.1:${port}`, 200)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the private redis-server did not start within 10 s');
  };
  const halt = async (): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    signal('SIGCONT'); // a frozen one must run to stop
    await stopSupervisedRedis(c);
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await halt();
      await launch();
    },
    halt,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
