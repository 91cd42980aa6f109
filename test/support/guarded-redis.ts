// A redis-server of a test's own that guards itself as an organiser's managed Redis does: a
// password (requirepass), an ACL user allowed no command at all, and, when the binary was
// built with TLS, a TLS port whose certificate is self-signed (made at start, trusted by no
// one). Used to check what the launcher says when Redis refuses, and that it never shows the
// password. It stops with the process that started it (src/queue/redis-launcher.ts).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, pingRedis, spawnSupervisedRedis, stopSupervisedRedis } from '../../src/queue/redis-launcher.ts';
import { selfSignedCertificate } from './self-signed.ts';

export const REDIS_PASSWORD = 's3cret-redis-pw';
/** An ACL user that may run no command, not even PING. */
export const POWERLESS_USER = { name: 'watcher', password: 'watcher-pw-9' };

export interface GuardedRedis {
  /** The plain port (RESP without TLS). */
  port: number;
  /** The TLS port, or undefined when this redis-server was built without TLS. */
  tlsPort?: number;
  stop(): Promise<void>;
}

async function launch(args: string[], port: number): Promise<ChildProcess | undefined> {
  const child = spawnSupervisedRedis(args, 'ignore');
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) return undefined;
    if (await pingRedis(`redis://:${REDIS_PASSWORD}@127.0.0.1:${port}`, 200)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopSupervisedRedis(child);
  return undefined;
}

export async function startGuardedRedis(): Promise<GuardedRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-guarded-redis-'));
  const port = await freePort();
  const base = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const guards = ['--requirepass', REDIS_PASSWORD, '--user', POWERLESS_USER.name, 'on', `>${POWERLESS_USER.password}`, '~*', '-@all'];
  const { cert, key } = selfSignedCertificate(dir);
  const tlsPort = await freePort();
  const tls = [
    '--tls-port',
    String(tlsPort),
    '--tls-cert-file',
    cert,
    '--tls-key-file',
    key,
    '--tls-ca-cert-file',
    cert,
    '--tls-auth-clients',
    'no',
  ];
  // A redis-server built without TLS refuses the tls-* options and exits: run it without them.
  let child = await launch([...base, ...guards, ...tls], port);
  const withTls = child !== undefined;
  child ??= await launch([...base, ...guards], port);
  if (!child) throw new Error('the guarded redis-server did not start');
  const started = child;
  return {
    port,
    tlsPort: withTls ? tlsPort : undefined,
    async stop() {
      await stopSupervisedRedis(started);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
