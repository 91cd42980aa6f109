// A redis-server of a test's own (append-only file on, in a temporary directory, on a free
// loopback port) that the test may stop and start again: the suite's shared Redis is never
// restarted. Also used by the soak bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, INSTALL_HINT, pingRedis } from '../../src/queue/redis-launcher.ts';

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
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--save', '', '--dir', dir], { stdio: 'ignore' });
    child = started;
    let spawnError: Error | undefined;
    started.once('error', (err) => (spawnError = err));
    for (let i = 0; i < 200; i++) {
      if (spawnError) throw new Error(`${INSTALL_HINT} (starting redis-server failed: ${spawnError.message})`);
      // While it loads the append-only file Redis answers LOADING, not PONG: wait until it is really up.
      if (await pingRedis(`redis://127.0.0.1:${port}`, 200)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the private redis-server did not start within 10 s');
  };
  const halt = async (): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    c.kill('SIGCONT'); // a frozen one must run to stop
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    await exited;
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await halt();
      await launch();
    },
    halt,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
