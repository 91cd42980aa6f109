// Starts one private redis-server on a free loopback port for the whole test run, so the
// tests never touch a Redis someone else uses. Each test file still gets its own queue
// prefix, so files running side by side do not see each other's jobs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const { Redis } = await import('ioredis');
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not answer PING within 10 s');
}

let child: ChildProcess | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'metaserver-test-redis-'));
  child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  const spawnError = new Promise<never>((_, reject) =>
    child!.once('error', (err) =>
      reject(new Error(`the tests need redis-server on the PATH (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis): ${err.message}`)),
    ),
  );
  await Promise.race([waitForPing(port, child), spawnError]);
  const url = `redis://127.0.0.1:${port}`;
  project.provide('redisUrl', url);
  process.env.METASERVER_TEST_REDIS_URL = url;
}

export async function teardown(): Promise<void> {
  child?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
}
