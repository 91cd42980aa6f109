// Starts one of the sample annotation servers under examples/ (Python standard library,
// Perl RPC::XML, Ruby xmlrpc on WEBrick) on a free loopback port and resolves once it
// prints its ready line, "listening on http://host:port/ (method …)".
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');

export const EXAMPLE_SERVERS = {
  python: { command: 'python3', script: join(EXAMPLES, 'python', 'annotation_server.py'), install: 'python3' },
  perl: { command: 'perl', script: join(EXAMPLES, 'perl', 'annotation_server.pl'), install: 'librpc-xml-perl' },
  ruby: { command: 'ruby', script: join(EXAMPLES, 'ruby', 'annotation_server.rb'), install: 'ruby-xmlrpc and ruby-webrick' },
} as const;

export type ExampleLanguage = keyof typeof EXAMPLE_SERVERS;

export interface ExampleServer {
  url: string;
  child: ChildProcess;
  stop(): void;
}

export async function startExampleServer(language: ExampleLanguage, extraArgs: string[] = []): Promise<ExampleServer> {
  const { command, script, install } = EXAMPLE_SERVERS[language];
  const child = spawn(command, [script, '--port', '0', '--host', '127.0.0.1', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start ${command} (is it installed?): ${err.message}`)));
    child.once('exit', (code) =>
      reject(new Error(`the ${language} sample server exited with code ${code} (does it have ${install}?): ${stderr}`)),
    );
    lines.on('line', (line) => {
      const m = /^listening on (http:\/\/\S+\/)/.exec(line);
      if (m) resolve(m[1]);
    });
  });
  return { url, child, stop: () => void child.kill('SIGTERM') };
}
