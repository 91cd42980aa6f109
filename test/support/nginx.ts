// Debian's nginx in front of a test meta-server, running the proxy snippet the docs show
// (docs/deploy/nginx.conf) with its ports, certificate and upstream filled in: its own
// prefix and temporary directories, `daemon off`, the error log in a temporary file, run as
// the current user, on free loopback ports. The certificate is self-signed, made here with
// `openssl req` for 127.0.0.1.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config.ts';
import { refusedPort } from './faulty-servers.ts';
import { selfSignedCertificate } from './self-signed.ts';

export const NGINX_SNIPPET = join(PROJECT_ROOT, 'docs', 'deploy', 'nginx.conf');

/** Debian installs it in /usr/sbin, which is not on every user's PATH. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

export interface Nginx {
  /** https://127.0.0.1:<port> */
  httpsUrl: string;
  /** http://127.0.0.1:<port>, the snippet's redirect to HTTPS. */
  httpUrl: string;
  /** The self-signed certificate (PEM) clients trust. */
  ca: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The snippet with this run's ports, certificate and upstream; fails if the snippet no longer has what it fills in. */
export function filledSnippet(
  snippet: string,
  at: { httpsPort: number; httpPort: number; cert: string; key: string; upstreamPort: number },
): string {
  const replacements: Array<[RegExp, string]> = [
    [/listen 443 ssl;/, `listen 127.0.0.1:${at.httpsPort} ssl;`],
    [/listen 80;/, `listen 127.0.0.1:${at.httpPort};`],
    [/ssl_certificate\s+\S+;/, `ssl_certificate ${at.cert};`],
    [/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${at.key};`],
    [/proxy_pass http:\/\/127\.0\.0\.1:8080;/, `proxy_pass http://127.0.0.1:${at.upstreamPort};`],
  ];
  let out = snippet;
  for (const [pattern, value] of replacements) {
    if (!pattern.test(out)) throw new Error(`${NGINX_SNIPPET} no longer has ${pattern}; update the test with it`);
    out = out.replace(pattern, value);
  }
  return out;
}

export async function startNginx(upstreamPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-nginx-'));
  for (const sub of ['logs', 'temp']) mkdirSync(join(dir, sub));
  const { cert, key } = selfSignedCertificate(dir);
  const [httpsPort, httpPort] = [await refusedPort(), await refusedPort()];
  const server = filledSnippet(readFileSync(NGINX_SNIPPET, 'utf8'), { httpsPort, httpPort, cert, key, upstreamPort });
  const errorLog = join(dir, 'logs', 'error.log');
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  // The main configuration around the snippet: what a system nginx.conf has, in this directory.
  const temp = (name: string) => `${name} ${join(dir, 'temp', name)};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `user ${userInfo().username} ${group};`,
      'worker_processes 1;',
      'daemon off;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} info;`,
      'events { worker_connections 64; }',
      'http {',
      `  access_log ${join(dir, 'logs', 'access.log')};`,
      `  ${temp('client_body_temp_path')} ${temp('proxy_temp_path')} ${temp('fastcgi_temp_path')} ${temp('uwsgi_temp_path')} ${temp('scgi_temp_path')}`,
      server,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readLog = () => {
    try {
      return readFileSync(errorLog, 'utf8');
    } catch {
      return '';
    }
  };
  // Ready once it listens; an nginx that exits first (a bad configuration) is reported with its log.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr}${readLog()}`);
    if (/start worker process/.test(readLog())) break;
    if (Date.now() > deadline) throw new Error(`nginx did not start in 10 s: ${stderr}${readLog()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    httpsUrl: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    ca: readFileSync(cert, 'utf8'),
    errorLog: readLog,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT'); // graceful: nginx's own stop signal
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
