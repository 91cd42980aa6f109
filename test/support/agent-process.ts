// Starts `metaserver agent` as a real child process (the command a team runs next to its
// server) and resolves once it has said what it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'metaserver.js');

export interface AgentProcess {
  child: ChildProcess;
  /** The exit code, or the signal that ended it. */
  exited: Promise<number | string | null>;
  lines: string[];
  kill(signal?: NodeJS.Signals): void;
}

/** `env` is added to this process's environment (METASERVER_URL, METASERVER_TOKEN in place of --url, --token). */
export async function startAgentProcess(args: string[], env: Record<string, string> = {}): Promise<AgentProcess> {
  const child = spawn(process.execPath, [BIN, 'agent', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const lines: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the agent exited with ${code} before it started: ${lines.join('\n')}`)));
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      if (line.includes(' agent for server ')) resolve();
    });
  });
  return { child, exited, lines, kill: (signal = 'SIGTERM') => void child.kill(signal) };
}
