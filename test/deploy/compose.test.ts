// docker-compose.yml as a tested shape. The first part reads it: a one-shot `migrate` the
// others wait for, health checks, the public-URL policy on where a port is published, stop
// grace long enough for a setup check. The second runs each service's command with its
// environment as local processes — Redis with the file's own arguments (AOF), PostgreSQL
// (the DATABASE_URL server, a fresh schema), the migrate one-shot, api, and as many workers
// as deploy.replicas says — loads a challenge, SIGKILLs the worker in the middle of a
// request, and checks every article is stored exactly once. Docker is not available to
// tests; where a container differs from a local process the test maps it, each time said.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, pingRedis, spawnSupervisedRedis, stopSupervisedRedis } from '../../src/queue/redis-launcher.ts';
import { annotate } from '../../src/sample/annotator.ts';
import { decodeMethodCall, encodeMethodResponse } from '../../src/xmlrpc/codec.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { waitFor } from '../support/runtime.ts';
import { durationMs, pidHoldingPort, readCompose, serviceEnvironment, startOrder, type ComposeService } from './compose.ts';
// @ts-expect-error -- a plain JavaScript module of the build (no type declarations)
import { ensureBundle } from '../../scripts/bundle.mjs';
import {
  answerCounts,
  ApiClient,
  baseEnvironment,
  freshSchema,
  READY,
  startService,
  stopAll,
  type FreshSchema,
  type ServiceProcess,
} from './services.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const compose = readCompose(join(root, 'docker-compose.yml'));
const defaults = JSON.parse(readFileSync(join(root, 'config', 'default.json'), 'utf8')) as {
  checkTimeoutSeconds: number;
  shutdownGraceMs: number;
};
const databaseUrl = process.env.DATABASE_URL;
const ADMIN = 'compose-test-admin-token-0123456789';
const { redis: redisService, api: apiService, worker: workerService, migrate: migrateService } = compose.services;
/** The meta-server services: the image's entry point (Dockerfile) runs their command. */
const ENTRYPOINT = ['node', join(root, 'bin', 'metaserver.js')];

describe('docker-compose.yml, as read', () => {
  it('has a one-shot migrate service that api and worker wait for', () => {
    expect(migrateService.command).toEqual(['migrate']);
    expect(migrateService.restart).toBe('no');
    for (const service of [apiService, workerService])
      expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    expect(startOrder(compose).indexOf('migrate')).toBeLessThan(startOrder(compose).indexOf('api'));
  });

  it('checks the health of api and worker with the metaserver command', () => {
    expect(apiService.healthcheck?.test).toEqual(['CMD', 'node', 'bin/metaserver.js', 'health']);
    expect(workerService.healthcheck?.test).toEqual(['CMD', 'node', 'bin/metaserver.js', 'health', '--worker']);
    expect(serviceEnvironment(workerService, { METASERVER_ADMIN_TOKEN: ADMIN }).METASERVER_WORKER_HEARTBEAT_FILE).toBeTruthy();
  });

  it('refuses private annotation-server URLs by default wherever a port is published, and needs an organiser token', () => {
    const published = Object.entries(compose.services).filter(([, s]) => (s.ports ?? []).length > 0 && s.command);
    expect(published.map(([name]) => name)).toEqual(['api']);
    for (const [, service] of published)
      expect(serviceEnvironment(service, { METASERVER_ADMIN_TOKEN: ADMIN }).METASERVER_PUBLIC_URLS_ONLY).toBe('true');
    // Workers make the calls: they follow the same policy.
    expect(serviceEnvironment(workerService, { METASERVER_ADMIN_TOKEN: ADMIN }).METASERVER_PUBLIC_URLS_ONLY).toBe('true');
    expect(() => serviceEnvironment(apiService, {})).toThrow(/METASERVER_ADMIN_TOKEN/);
  });

  it('gives the API more stop grace than a setup check may take, and workers more than their shutdown grace', () => {
    const check = Number(
      serviceEnvironment(apiService, { METASERVER_ADMIN_TOKEN: ADMIN }).METASERVER_CHECK_TIMEOUT_SECONDS ?? defaults.checkTimeoutSeconds,
    );
    expect(durationMs(apiService.stop_grace_period!)).toBeGreaterThanOrEqual(check * 1000);
    expect(durationMs(workerService.stop_grace_period!)).toBeGreaterThanOrEqual(defaults.shutdownGraceMs);
  });
});

/**
 * An annotation server that answers at once, except the first request for the article
 * marked HOLD: that one it keeps open, and tells which local port the caller used.
 */
async function startHoldingAnnotator(): Promise<{
  url: string;
  held: Promise<number>;
  calls: Map<string, number>;
  close(): Promise<void>;
}> {
  const calls = new Map<string, number>();
  let heldPort!: (port: number) => void;
  const held = new Promise<number>((resolve) => (heldPort = resolve));
  let holding = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const [text = '', given = ''] = decodeMethodCall(body).params.map((p) => (typeof p === 'string' ? p : ''));
      calls.set(text, (calls.get(text) ?? 0) + 1);
      if (text.includes('HOLD') && !holding) {
        holding = true;
        heldPort(req.socket.remotePort!);
        return; // never answered: the worker that sent it is killed
      }
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(encodeMethodResponse(annotate(text, given)));
    });
  });
  const { port } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    held,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!databaseUrl)('docker-compose.yml, run as local processes', () => {
  let redisChild: ReturnType<typeof spawnSupervisedRedis> | undefined;
  let redisUrl: string;
  let schema: FreshSchema;
  let annotator: Awaited<ReturnType<typeof startHoldingAnnotator>>;
  const scratch = mkdtempSync(join(tmpdir(), 'metaserver-compose-'));
  const services: ServiceProcess[] = [];
  const envOf = new Map<ServiceProcess, Record<string, string>>();
  let apiPort: number;

  /**
   * A meta-server service's environment as compose gives it, with what differs on one machine
   * mapped: the hosts `redis` and `postgres` are this test's Redis and PostgreSQL schema;
   * PORT is a free port (the container's 8080 is published on the host; HOST stays as the
   * file says, so the health check's way to its own API is the container's); each
   * process gets a /tmp of its own, as each container has. METASERVER_PUBLIC_URLS_ONLY is false
   * as an organiser sets it on a closed network: the annotation server here is on loopback.
   * Lock, stalled-job and server-sync intervals are short so a killed worker's job is
   * retried, and its share of the servers taken over, within seconds (30 s, 30 s and three
   * times 2 s by default): the test's only changes to the services' settings.
   */
  function localEnvironment(service: ComposeService, name: string): Record<string, string> {
    const env = serviceEnvironment(service, { METASERVER_ADMIN_TOKEN: ADMIN, METASERVER_PUBLIC_URLS_ONLY: 'false' });
    expect(new URL(env.REDIS_URL).hostname).toBe('redis');
    expect(new URL(env.DATABASE_URL).hostname).toBe('postgres');
    const ownTmp = mkdtempSync(join(scratch, `${name}-tmp-`));
    const mapped: Record<string, string> = { ...env, REDIS_URL: redisUrl, DATABASE_URL: schema.url, PORT: String(apiPort) };
    if (env.METASERVER_WORKER_HEARTBEAT_FILE)
      mapped.METASERVER_WORKER_HEARTBEAT_FILE = env.METASERVER_WORKER_HEARTBEAT_FILE.replace(/^\/tmp\//, `${ownTmp}/`);
    return {
      ...baseEnvironment(),
      ...mapped,
      METASERVER_LOCK_DURATION_MS: '2000',
      METASERVER_STALLED_INTERVAL_MS: '1000',
      METASERVER_SERVER_SYNC_INTERVAL_MS: '500',
    };
  }

  /** A service's health check command, run beside it with its environment (as Docker does in the container). */
  function healthCheck(service: ComposeService, env: Record<string, string>): { status: number | null; output: string } {
    const [kind, command, ...args] = service.healthcheck!.test;
    expect(kind).toBe('CMD');
    expect(command).toBe('node');
    const run = spawnSync(process.execPath, args, {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: durationMs(service.healthcheck!.timeout ?? '30s'),
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  beforeAll(async () => {
    // The services start from the bundle, as in the image (through tsx each start and each
    // health check would take twice as long).
    await (ensureBundle as () => Promise<void>)();
    // Redis with the compose file's own arguments; where it listens and keeps its files is local.
    const port = await freePort();
    const [program, ...args] = redisService.command!;
    expect(program).toBe('redis-server');
    redisChild = spawnSupervisedRedis(
      [...args, '--port', String(port), '--bind', '127.0.0.1', '--dir', mkdtempSync(join(scratch, 'redis-'))],
      'ignore',
    );
    redisUrl = `redis://127.0.0.1:${port}`;
    await waitFor('Redis', async () => ((await pingRedis(redisUrl, 200)) ? true : undefined), 10_000);
    [schema, annotator, apiPort] = await Promise.all([freshSchema(databaseUrl!), startHoldingAnnotator(), freePort()]);
  }, 120_000);

  afterAll(async () => {
    await stopAll(services);
    if (redisChild) await stopSupervisedRedis(redisChild);
    await Promise.all([schema?.drop(), annotator?.close()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('Redis runs with the append-only file, fsynced every second', async () => {
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await redis.config('GET', 'appendfsync')).toEqual(['appendfsync', 'everysec']);
    } finally {
      redis.disconnect();
    }
  });

  it('migrate, api and two workers come up in order and healthy; a worker killed mid-request loses no article and doubles none', async () => {
    for (const name of startOrder(compose)) {
      const service = compose.services[name];
      if (service.image) continue; // redis and postgres: provided by the test, above
      const argv = [...ENTRYPOINT, ...service.command!];
      if (service.restart === 'no') {
        // A one-shot: the services that wait for it start only once it exited 0.
        const run = spawnSync(process.execPath, argv.slice(1), { cwd: root, env: localEnvironment(service, name), encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        continue;
      }
      const envs = Array.from({ length: service.deploy?.replicas ?? 1 }, () => localEnvironment(service, name));
      const started = await Promise.all(
        envs.map((env, i) => startService(`${name}-${i + 1}`, argv, { cwd: root, env, ready: READY[name as 'api' | 'worker'] })),
      );
      started.forEach((s, i) => envOf.set(s, envs[i]));
      services.push(...started);
    }
    const workers = services.filter((s) => s.name.startsWith('worker-'));
    expect(workers).toHaveLength(workerService.deploy!.replicas!);
    expect(services.map((s) => s.name)).toContain('api-1');
    expect(await schema.db.query('select count(*)::int as n from schema_migrations')).toEqual([{ n: expect.any(Number) }]);

    // Their health checks pass, each run with its own service's environment.
    for (const s of services) {
      const check = healthCheck(s.name.startsWith('api') ? apiService : workerService, envOf.get(s)!);
      expect(check.status, `${s.name}: ${check.output}`).toBe(0);
    }

    const api = new ApiClient(`http://127.0.0.1:${apiPort}`, ADMIN);
    const articles = Array.from({ length: 8 }, (_, i) => ({
      id: `A${i}`,
      text: `Article ${i}${i === 3 ? ' HOLD' : ''}: BRCA1 (P38398) binds TP53.`,
    }));
    const { serverId, team, ids } = await api.loadChallenge('compose', articles, annotator.url);

    // The worker whose request is held open is killed, as by an OOM killer or a host crash.
    const clientPort = await annotator.held;
    const victimPid = pidHoldingPort(
      clientPort,
      workers.map((w) => w.child.pid!),
    );
    const victim = workers.find((w) => w.child.pid === victimPid);
    expect(victim, 'the held request came from one of the worker processes').toBeDefined();
    victim!.kill('SIGKILL');
    expect(await victim!.exited).toBe('SIGKILL');

    await api.waitForDone(serverId, team, articles.length, 90_000);
    const counts = await answerCounts(schema.db, serverId);
    expect(counts).toEqual(Object.fromEntries(articles.map((a) => [ids[a.id], 1])));
    // The held article was asked again (of the surviving worker) and answered then.
    expect(annotator.calls.get(articles[3].text)).toBe(2);

    // The killed worker's heartbeat file ages: once three sync intervals old, its check fails.
    const victimEnv = envOf.get(victim!)!;
    const old = new Date(Date.now() - 60_000);
    utimesSync(victimEnv.METASERVER_WORKER_HEARTBEAT_FILE, old, old);
    const stale = healthCheck(workerService, victimEnv);
    expect(stale.status).toBe(1);
    expect(stale.output).toContain('old');
    // The API's check fails when the API is gone.
    const apiProcess = services.find((s) => s.name === 'api-1')!;
    await stopAll([apiProcess]);
    const down = healthCheck(apiService, envOf.get(apiProcess)!);
    expect(down.status).toBe(1);
    expect(down.output).toContain('cannot reach the meta-server');
  }, 180_000);
});
