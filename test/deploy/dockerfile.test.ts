// The image, without Docker: the Dockerfile's COPY lines laid out in an empty directory
// (standing for its WORKDIR), its RUN lines run there with this machine's npm and node, and
// `api` and `worker` started from there with its ENV, ENTRYPOINT and CMD — against
// PostgreSQL (DATABASE_URL; a fresh schema) and a private Redis — until one article is
// dispatched to a loopback annotation server and stored. The processes get the image's
// environment and the service settings compose gives them, not this machine's environment.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/queue/redis-launcher.ts';
import { annotate } from '../../src/sample/annotator.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { copyInto, parseDockerfile, readDockerignore, type Instruction } from './dockerfile.ts';
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

const context = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const databaseUrl = process.env.DATABASE_URL;
const ADMIN = 'image-test-admin-token-0123456789';
const instructions = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));

/**
 * `npm ci` of the same package.json and lock with the same command gives the same
 * node_modules, so — as Docker's layer cache does — a tree installed once is reused
 * (hard-linked) while those inputs stay the same: a first run pays the install (~40 s on a
 * busy 2-core machine), later runs a second. npm also reads its own cache first
 * (--prefer-offline): nothing needs the network while the npm cache is warm.
 */
function runNpmCi(command: string, root: string, env: Record<string, string>): void {
  const key = createHash('sha256')
    .update(readFileSync(join(root, 'package.json')))
    .update(readFileSync(join(root, 'package-lock.json')))
    .update(`${command}\0${process.version}`)
    .digest('hex')
    .slice(0, 16);
  const layers = join(tmpdir(), 'metaserver-image-layers');
  const layer = join(layers, key);
  if (!existsSync(layer)) {
    const run = spawnSync('sh', ['-c', `${command} --prefer-offline`], { cwd: root, env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`RUN ${command} failed (${run.status}):\n${run.stderr}`);
    mkdirSync(layers, { recursive: true });
    const partial = `${layer}.${process.pid}`;
    execFileSync('cp', ['-al', join(root, 'node_modules'), partial]);
    renameSync(partial, layer); // whole or not at all, for the next run
    // Layers of other locks are not used again: one is kept, as a build cache keeps the last.
    for (const other of readdirSync(layers))
      if (other !== key && !other.includes('.')) rmSync(join(layers, other), { recursive: true, force: true });
    return;
  }
  execFileSync('cp', ['-al', layer, join(root, 'node_modules')]);
}

describe.skipIf(!databaseUrl)('the Docker image, laid out and run without Docker', () => {
  let root: string;
  let redis: PrivateRedis;
  let schema: FreshSchema;
  let annotator: FaultyServer;
  const env: Record<string, string> = {};
  let entrypoint: string[] = [];
  let cmd: string[] = [];
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'metaserver-image-'));
    const ignored = readDockerignore(context);
    let workdir = '/';
    for (const step of instructions) {
      if (step.op === 'WORKDIR') workdir = step.dir;
      else if (step.op === 'ENV') env[step.name] = step.value;
      else if (step.op === 'COPY') copyInto(context, ignored, step, workdir, root);
      else if (step.op === 'RUN') {
        const runEnv = { ...baseEnvironment(), ...env };
        if (/^npm ci\b/.test(step.command)) runNpmCi(step.command, root, runEnv);
        else {
          const run = spawnSync('sh', ['-c', step.command], { cwd: root, env: runEnv, encoding: 'utf8' });
          if (run.status !== 0) throw new Error(`RUN ${step.command} failed (${run.status}):\n${run.stderr}`);
        }
      } else if (step.op === 'ENTRYPOINT') entrypoint = step.argv;
      else if (step.op === 'CMD') cmd = step.argv;
    }
    [redis, schema, annotator] = await Promise.all([
      startPrivateRedis(),
      freshSchema(databaseUrl!),
      startFaultyServer({ kind: 'custom', handler: (text, given) => annotate(text, given) }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await stopAll(services);
    await Promise.all([redis?.stop(), schema?.drop(), annotator?.close()]);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('starts from Node 20 with one entry point, `api` by default, as a user without root', () => {
    expect(instructions.find((i) => i.op === 'FROM')).toMatchObject({ image: expect.stringMatching(/^node:20/) });
    expect(entrypoint).toEqual(['node', 'bin/metaserver.js']);
    expect(cmd).toEqual(['api']);
    expect(instructions.filter((i): i is Extract<Instruction, { op: 'USER' }> => i.op === 'USER').at(-1)?.user).toBe('node');
    // Built at image build time, where the image says, and complete: the reading thread too.
    expect(env.METASERVER_BUNDLE_DIR).toBeTruthy();
    expect(existsSync(join(root, env.METASERVER_BUNDLE_DIR, 'main.mjs'))).toBe(true);
    expect(existsSync(join(root, env.METASERVER_BUNDLE_DIR, 'reading-thread.mjs'))).toBe(true);
  });

  it('api and worker start from the bundle and dispatch an article to an annotation server, stored once', async () => {
    const port = await freePort();
    // What docker-compose.yml gives each service, with this machine's PostgreSQL and Redis.
    const serviceEnv = {
      ...baseEnvironment(),
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      REDIS_URL: redis.url,
      DATABASE_URL: schema.url,
      METASERVER_ADMIN_TOKEN: ADMIN,
    };
    // Together, on an empty database, as compose starts them: both migrate (one waits).
    services.push(
      ...(await Promise.all([
        startService('api', [...entrypoint, ...cmd], { cwd: root, env: serviceEnv, ready: READY.api }),
        startService('worker', [...entrypoint, 'worker'], { cwd: root, env: serviceEnv, ready: READY.worker }),
      ])),
    );
    const api = new ApiClient(`http://127.0.0.1:${port}`, ADMIN);
    const { serverId, team, ids } = await api.loadChallenge('image', [{ id: 'I1', text: 'BRCA1 (P38398) binds TP53.' }], annotator.url);
    await api.waitForDone(serverId, team, 1);
    expect(await answerCounts(schema.db, serverId)).toEqual({ [ids.I1]: 1 });
    const response = await api.expectOk('GET', `/api/articles/${ids.I1}/responses/${serverId}`, undefined, team);
    expect(response.result.INT[0].accession).toBe('P38398');
    // The setup check and the article: the annotation server was called by these processes.
    expect(annotator.requests).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('never compiles the sources through tsx: with a source changed after the build, a start is refused', async () => {
    await stopAll(services.splice(0));
    // The processes above ran, so they ran from the bundle: the image allows nothing else.
    const source = join(root, 'src', 'main.ts');
    const later = new Date(Date.now() + 60_000);
    utimesSync(source, later, later);
    const run = spawnSync(process.execPath, [join(root, entrypoint[1]), 'config'], {
      cwd: root,
      env: { ...baseEnvironment(), ...env },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no bundle matching the sources');
    expect(run.stderr).toContain('node scripts/bundle.mjs');
    // Rebuilt as the Dockerfile does, it starts again.
    const rebuilt = instructions.find((i): i is Extract<Instruction, { op: 'RUN' }> => i.op === 'RUN' && i.command.includes('bundle'))!;
    expect(spawnSync('sh', ['-c', rebuilt.command], { cwd: root, env: { ...baseEnvironment(), ...env } }).status).toBe(0);
    const again = spawnSync(process.execPath, [join(root, entrypoint[1]), 'config'], {
      cwd: root,
      env: { ...baseEnvironment(), ...env },
      encoding: 'utf8',
    });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('databaseUrl = ');
  }, 60_000);
});
