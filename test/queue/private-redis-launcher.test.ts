// The private redis-server `npm start` runs when no Redis answers: it does not outlive the
// process that started it, even one killed with SIGKILL; a start stops a redis-server an
// earlier run left on the data directory; two meta-servers never share one directory.
// Each case runs the launcher in a process of its own (test/support/redis-owner.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { processCommand } from '../../src/queue/data-dir-lock.ts';
import { pingRedis } from '../../src/queue/redis-launcher.ts';
import { waitFor } from '../support/runtime.ts';
import { goneProcess } from '../support/gone-process.ts';

const OWNER = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'redis-owner.ts');
const dirs: string[] = [];
const owners: ChildProcess[] = [];

interface Owned {
  child: ChildProcess;
  line: { url?: string; pid?: number; supervisorPid?: number; error?: string };
  exited: Promise<number | string | null>;
}

async function startOwner(dataDir: string): Promise<Owned> {
  const child = spawn(process.execPath, ['--import', 'tsx', OWNER, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  owners.push(child);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const line = await new Promise<Owned['line']>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`the owner process exited with ${code} before it said anything`)));
  });
  return { child, line, exited };
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-launcher-'));
  dirs.push(dir);
  return dir;
}

const redisPid = (dir: string) => Number(readFileSync(join(dir, 'redis', 'redis.pid'), 'utf8').trim());
const isRedis = (pid: number) => processCommand(pid)?.includes('redis-server') ?? false;

afterEach(async () => {
  for (const o of owners.splice(0)) if (o.exitCode === null && o.signalCode === null) o.kill('SIGKILL');
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the private redis-server', () => {
  it('stops when the process that started it is killed with SIGKILL, and a restart takes the directory over', async () => {
    const dir = dataDir();
    const first = await startOwner(dir);
    expect(first.line.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    const pid = redisPid(dir);
    expect(isRedis(pid)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;
    // No exit handler ran: the supervising shell saw its input end and stopped Redis.
    await waitFor('the orphaned redis-server to stop', async () => (isRedis(pid) ? undefined : true), 10_000);
    expect(await pingRedis(first.line.url!, 300)).toBe(false);
    expect(processCommand(first.line.supervisorPid!)).toBeNull();
    // Its lock names a process that is gone: the next start takes it over.
    const second = await startOwner(dir);
    expect(second.line.error).toBeUndefined();
    expect(await pingRedis(second.line.url!, 1000)).toBe(true);
  });

  it('a start stops a redis-server left running on the data directory by an earlier run', async () => {
    const dir = dataDir();
    const redisDir = join(dir, 'redis');
    mkdirSync(redisDir, { recursive: true });
    // What a SIGKILL used to leave: a redis-server on the directory with no parent, and the
    // lock of a process that is gone.
    const manual = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--unixsocket',
        join(redisDir, 'left.sock'),
        '--dir',
        redisDir,
        '--appendonly',
        'yes',
        '--pidfile',
        join(redisDir, 'redis.pid'),
        '--daemonize',
        'yes',
      ],
      { stdio: 'ignore' },
    );
    await new Promise((r) => manual.once('exit', r));
    await waitFor('the parentless redis-server', async () =>
      existsSync(join(redisDir, 'redis.pid')) && isRedis(redisPid(dir)) ? true : undefined,
    );
    const left = redisPid(dir);
    writeFileSync(join(redisDir, 'metaserver.lock'), `${await goneProcess()}\n`);
    const owner = await startOwner(dir);
    expect(owner.line.error).toBeUndefined();
    expect(isRedis(left)).toBe(false);
    const now = redisPid(dir);
    expect(now).not.toBe(left);
    expect(isRedis(now)).toBe(true);
  });

  it('a second meta-server on the same data directory is refused, naming the first', async () => {
    const dir = dataDir();
    const first = await startOwner(dir);
    const second = await startOwner(dir);
    expect(second.line.error).toMatch(
      new RegExp(
        `another metaserver \\(pid ${first.child.pid}, \`metaserver [^\`]+\`, since \\d{4}-[\\d-]+T[\\d:.]+Z\\) uses the private Redis in `,
      ),
    );
    expect(await second.exited).toBe(1);
    expect(await pingRedis(first.line.url!, 1000)).toBe(true);
  });

  it('a lock whose process is gone is stale: the start goes ahead', async () => {
    const dir = dataDir();
    const redisDir = join(dir, 'redis');
    mkdirSync(redisDir, { recursive: true });
    writeFileSync(join(redisDir, 'metaserver.lock'), `${await goneProcess()}\n`);
    const owner = await startOwner(dir);
    expect(owner.line.error).toBeUndefined();
    expect(readFileSync(join(redisDir, 'metaserver.lock'), 'utf8').split('\n')[0]).toBe(String(owner.child.pid));
  });
});
