// A real `metaserver` command in a process of its own (bin/metaserver.js, as people run it),
// with an environment of the test's choosing: a data directory, a Redis, no DATABASE_URL
// unless given. Used by the deploy tests to start, refuse, back up and restore for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'metaserver.js');
export const ADMIN_TOKEN = 'deploy-test-admin-token-0123456789';

export interface CliProcess {
  child: ChildProcess;
  /** Every line written to stdout so far. */
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string | null>;
  /** Resolves with the first stdout line containing `text`; rejects if the process exits first. */
  waitForLine(text: string): Promise<string>;
}

/** The environment of a test installation: nothing inherited that names another database or Redis. */
export function installationEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(base))
    if (key.startsWith('METASERVER_') || key === 'DATABASE_URL' || key === 'REDIS_URL' || key === 'LOG_FORMAT') delete base[key];
  return {
    ...base,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    METASERVER_ADMIN_TOKEN: ADMIN_TOKEN,
    METASERVER_RECONCILE_INTERVAL_MS: '500',
    ...env,
  };
}

export function startCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  const waiters: Array<{ text: string; resolve: (l: string) => void }> = [];
  child.stderr.on('data', (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) {
      if (line.includes(w.text)) w.resolve(line);
      else waiters.push(w);
    }
  });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    waitForLine: (text) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((l) => l.includes(text));
        if (seen) return resolve(seen);
        waiters.push({ text, resolve });
        void exited.then((code) => reject(new Error(`metaserver ${args.join(' ')} exited (${code}) before it wrote "${text}": ${stderr}`)));
      }),
  };
}

/** Runs a command to its end; resolves with its exit code and output. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const p = startCli(args, env);
  const code = await p.exited;
  // The readline interface may still hold the last line for a tick after exit.
  await new Promise((r) => setImmediate(r));
  return { code, stdout: p.lines.join('\n'), stderr: p.stderr() };
}

/** The address a serving process listens on, from its start line. */
export async function servingAddress(p: CliProcess): Promise<string> {
  const line = await p.waitForLine('metaserver is serving on');
  return /serving on (http:\/\/\S+)/.exec(line)![1];
}
