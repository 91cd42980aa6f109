// Starts examples/python/annotation_server.py (Python standard library only) on a free
// loopback port and resolves once it prints its ready line.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const PYTHON_SERVER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'python', 'annotation_server.py');

export interface PythonServer {
  url: string;
  child: ChildProcess;
  stop(): void;
}

export async function startPythonServer(extraArgs: string[] = []): Promise<PythonServer> {
  const child = spawn('python3', [PYTHON_SERVER_SCRIPT, '--port', '0', '--host', '127.0.0.1', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start python3 (is it installed?): ${err.message}`)));
    child.once('exit', (code) => reject(new Error(`the Python sample server exited with code ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      const m = /^listening on (http:\/\/\S+\/)/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return { url, child, stop: () => void child.kill('SIGTERM') };
}
