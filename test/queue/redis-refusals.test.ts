// When REDIS_URL's Redis refuses, the launcher says why (the credentials, an ACL permission,
// an untrusted certificate, TLS to a plain port) and what to do, on a real redis-server with
// a password, an ACL user and a self-signed TLS port; neither the message nor a log line
// ever holds the password.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, resolveRedis } from '../../src/queue/redis-launcher.ts';
import { RedisUnavailableError } from '../../src/queue/redis-errors.ts';
import { POWERLESS_USER, REDIS_PASSWORD, startGuardedRedis, type GuardedRedis } from '../support/guarded-redis.ts';

const WRONG_PASSWORD = 'not-the-pw-71';
let redis: GuardedRedis;
let dataDir: string;
const logLines: string[] = [];
const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });

beforeAll(async () => {
  redis = await startGuardedRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'metaserver-refusals-'));
});
afterAll(async () => {
  await redis?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The launcher's refusal of `redisUrl`, checked to show none of the passwords. */
async function refusal(redisUrl: string): Promise<string> {
  const err = await resolveRedis({ redisUrl, dataDir, redisWaitSeconds: 0 }, log).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RedisUnavailableError);
  const message = (err as Error).message;
  for (const secret of [REDIS_PASSWORD, WRONG_PASSWORD, POWERLESS_USER.password]) {
    expect(message).not.toContain(secret);
    expect(logLines.join('')).not.toContain(secret);
  }
  return message;
}

describe('the Redis launcher, when REDIS_URL names a Redis with a password', () => {
  it('uses it when the password is right', async () => {
    const url = `redis://:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`;
    const found = await resolveRedis({ redisUrl: url, dataDir, redisWaitSeconds: 0 }, log);
    expect(found.source).toBe('REDIS_URL');
    expect(logLines.join('')).not.toContain(REDIS_PASSWORD);
  });

  it('says the credentials were refused, and shows the URL with *** for a wrong password', async () => {
    const message = await refusal(`redis://default:${WRONG_PASSWORD}@127.0.0.1:${redis.port}/0`);
    expect(message).toContain(`Redis at REDIS_URL (redis://default:***@127.0.0.1:${redis.port}/0) refused the credentials`);
    expect(message).toContain('check the user and password in REDIS_URL');
  });

  it('says the credentials were refused when REDIS_URL gives no password', async () => {
    expect(await refusal(`redis://127.0.0.1:${redis.port}`)).toMatch(/refused the credentials \(NOAUTH/);
  });

  it('names the command an ACL user may not run, and how to grant it', async () => {
    const message = await refusal(`redis://${POWERLESS_USER.name}:${POWERLESS_USER.password}@127.0.0.1:${redis.port}`);
    expect(message).toContain(`(redis://${POWERLESS_USER.name}:***@127.0.0.1:${redis.port})`);
    expect(message).toMatch(/lacks a permission \(NOPERM .*'ping' command\): grant it \(ACL SETUSER <user> \+ping\)/);
  });

  it('still says "does not answer" when nothing listens', async () => {
    const port = await freePort();
    const message = await refusal(`redis://:${WRONG_PASSWORD}@127.0.0.1:${port}`);
    expect(message).toMatch(/does not answer \(.*ECONNREFUSED.*\): start it, fix REDIS_URL/);
  });
});

// Skipped only when this redis-server was built without TLS (then it refuses --tls-port).
describe('the Redis launcher over TLS', () => {
  it('says an untrusted certificate needs NODE_EXTRA_CA_CERTS', async (ctx) => {
    if (!redis.tlsPort) ctx.skip();
    const message = await refusal(`rediss://:${REDIS_PASSWORD}@localhost:${redis.tlsPort}`);
    expect(message).toContain(`(rediss://:***@localhost:${redis.tlsPort})`);
    expect(message).toMatch(/TLS certificate that is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT.*set NODE_EXTRA_CA_CERTS/);
  });

  it('says TLS went to a port that does not speak it', async () => {
    const message = await refusal(`rediss://:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`);
    expect(message).toMatch(/did not answer the TLS handshake .*use redis:\/\/ or the TLS port/);
  });

  it('says a plain connection to a TLS port wants rediss://', async (ctx) => {
    if (!redis.tlsPort) ctx.skip();
    const message = await refusal(`redis://:${REDIS_PASSWORD}@127.0.0.1:${redis.tlsPort}`);
    expect(message).toMatch(/closed the connection at once \(.*ECONNRESET.*\): if that port speaks TLS only, use rediss:\/\//);
  });
});
