// A Redis Cluster of a test's own: three masters (no replicas) on free loopback ports, in a
// temporary directory, joined with redis-cli and waited for until every node says
// cluster_state:ok. Each node is supervised as the meta-server's private Redis is, so the
// cluster stops with the test process, even one killed.
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, pingRedis, spawnSupervisedRedis, stopSupervisedRedis } from '../../src/queue/redis-launcher.ts';

export interface TestRedisCluster {
  ports: number[];
  /** REDIS_URL for the meta-server: the first node (the client finds the others). */
  url: string;
  /** One plain connection per node, to look at what each node holds. */
  nodes(): Redis[];
  stop(): Promise<void>;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`the test Redis Cluster: ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRedisCluster(masters = 3): Promise<TestRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const connections: Redis[] = [];
  const stop = async () => {
    for (const c of connections) c.disconnect();
    await Promise.all(children.map((c) => stopSupervisedRedis(c)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      ports.push(port);
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'];
      args.push('--cluster-config-file', join(dir, `nodes-${port}.conf`), '--save', '', '--appendonly', 'no', '--dir', dir);
      children.push(spawnSupervisedRedis(args, 'ignore'));
    }
    for (const port of ports) await until(`node ${port} answering`, () => pingRedis(`redis://127.0.0.1:${port}`, 200));
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      const node = new Redis(port, '127.0.0.1');
      connections.push(node);
      await until(`node ${port} saying cluster_state:ok`, async () => /cluster_state:ok/.test(await node.cluster('INFO')));
    }
    return { ports, url: `redis://127.0.0.1:${ports[0]}`, nodes: () => connections, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
