// The worker's heartbeat file (container health checks): touched while the worker's Redis
// and database answer, judged stale after three sync intervals, removed when it stops.
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHealthCommand } from '../../src/cli/health.ts';
import { freePort } from '../../src/queue/redis-launcher.ts';
import { heartbeatProblem, startHeartbeatFile, type HeartbeatFile } from '../../src/queue/heartbeat-file.ts';
import { waitFor } from '../support/runtime.ts';

describe('the worker heartbeat file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-heartbeat-'));
  const file = join(dir, 'worker.heartbeat');
  let heartbeat: HeartbeatFile | undefined;
  afterEach(() => {
    heartbeat?.stop();
    rmSync(file, { force: true });
  });

  it('is written while the worker is alive, and removed when it stops', async () => {
    heartbeat = startHeartbeatFile(file, 50, async () => true);
    await waitFor('the file', async () => (existsSync(file) ? true : undefined));
    expect(heartbeatProblem(file, 50)).toBeNull();
    // Aged by hand, it is touched again at the next beat.
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    await waitFor('a fresh touch', async () => (statSync(file).mtimeMs > old.getTime() ? true : undefined));
    heartbeat.stop();
    expect(existsSync(file)).toBe(false);
    expect(heartbeatProblem(file, 50)).toMatch(/no heartbeat file/);
  });

  it('is not touched while Redis or the database does not answer, and is then judged stale after three intervals', async () => {
    let alive = true;
    let asked = 0;
    heartbeat = startHeartbeatFile(file, 50, async () => (asked++, alive));
    await waitFor('the file', async () => (existsSync(file) ? true : undefined));
    alive = false;
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const before = asked;
    await waitFor('three beats', async () => (asked >= before + 3 ? true : undefined));
    expect(Math.abs(statSync(file).mtimeMs - old.getTime())).toBeLessThan(1); // not touched (file times are not exact to the ms)
    // Three intervals of 1 s against a file a minute old: stale, and it says how old.
    expect(heartbeatProblem(file, 1000)).toMatch(/is 60 s old \(more than 3 s\)/);
    expect(heartbeatProblem(file, 1000, old.getTime() + 2999)).toBeNull();
  });

  describe('metaserver health', () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const key of ['METASERVER_WORKER_HEARTBEAT_FILE', 'PORT', 'HOST']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    });

    it('--worker: 0 while the heartbeat file is fresh, 1 when it is missing or no file is set', async () => {
      process.env.METASERVER_WORKER_HEARTBEAT_FILE = file;
      heartbeat = startHeartbeatFile(file, 50, async () => true);
      await waitFor('the file', async () => (existsSync(file) ? true : undefined));
      expect(await runHealthCommand(['--worker'])).toBe(0);
      heartbeat.stop();
      expect(await runHealthCommand(['--worker'])).toBe(1);
      process.env.METASERVER_WORKER_HEARTBEAT_FILE = '';
      expect(await runHealthCommand(['--worker'])).toBe(1);
    });

    it('the API: 1 when nothing answers on HOST/PORT (0.0.0.0 is reached through loopback); 2 for an unknown option', async () => {
      process.env.HOST = '0.0.0.0';
      process.env.PORT = String(await freePort());
      expect(await runHealthCommand([])).toBe(1);
      expect(await runHealthCommand(['--wroker'])).toBe(2);
    });
  });
});
