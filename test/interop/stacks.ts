// The annotation servers of the interop matrix, each built on a real XML-RPC library from
// Debian (Perl, Ruby, C, Python) or reproducing Apache XML-RPC's wire forms, each started
// on a free loopback port. Every one answers MENTION and ACT for the same four names,
// counting offsets the way its language indexes strings.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startApacheLike } from './apache-like.ts';

const SERVERS = join(dirname(fileURLToPath(import.meta.url)), 'servers');

/** How the server's language counts the offsets it sends. */
export type OffsetUnit = 'code points' | 'UTF-16 units' | 'UTF-8 bytes';

export interface Stack {
  /** Short name, for the table. */
  name: string;
  /** The library and how it is served. */
  library: string;
  /** Debian packages it needs (named when it cannot start). */
  packages: string;
  unit: OffsetUnit;
  start(): Promise<RunningStack>;
}

export interface RunningStack {
  url: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** Starts a server process and resolves with the URL of its "listening on URL" line. */
function spawnReady(command: string, args: string[], packages: string, cleanup: () => void = () => {}): Promise<RunningStack> {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    cleanup();
  };
  let ready = false;
  return new Promise<RunningStack>((resolve, reject) => {
    const fail = (why: string): void => {
      if (ready) return; // exits after the ready line are the stop's business
      clearTimeout(timer);
      void stop();
      reject(new Error(`${command} ${args.join(' ')} ${why} (does it need ${packages}? .ci/run installs them): ${stderr}`));
    };
    const timer = setTimeout(() => fail(`printed no ready line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.once('error', (err) => fail(`could not start: ${err.message}`));
    child.once('exit', (code) => fail(`exited with code ${code}`));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      ready = true;
      resolve({ url: m[1], stop });
    });
  });
}

/** Compiles the xmlrpc-c server into a temporary directory, with the flags xmlrpc-c-config gives. */
async function startXmlrpcC(): Promise<RunningStack> {
  const dir = mkdtempSync(join(tmpdir(), 'xmlrpc-c-'));
  const binary = join(dir, 'annotation-server');
  const run = promisify(execFile);
  try {
    const flags = (await run('xmlrpc-c-config', ['abyss-server', '--cflags', '--libs'])).stdout.trim().split(/\s+/);
    await run('gcc', ['-O1', '-o', binary, join(SERVERS, 'xmlrpc_c_server.c'), ...flags]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `cannot build the xmlrpc-c server (needs gcc and libxmlrpc-core-c3-dev; .ci/run installs them): ${(err as Error).message}`,
    );
  }
  return spawnReady(binary, [], 'libxmlrpc-core-c3-dev', () => rmSync(dir, { recursive: true, force: true }));
}

const python = (mode: string) => () => spawnReady('python3', [join(SERVERS, 'python_server.py'), mode], 'python3');
const perl = (script: string, packages: string) => () => spawnReady('perl', [join(SERVERS, script)], packages);

async function apache(encoding: 'utf-8' | 'iso-8859-1'): Promise<RunningStack> {
  const server = await startApacheLike(encoding);
  return { url: server.url, stop: () => server.close() };
}

export const STACKS: Stack[] = [
  {
    name: 'RPC::XML',
    library: 'Perl RPC::XML::Server',
    packages: 'librpc-xml-perl',
    unit: 'code points',
    start: perl('perl_rpc_xml.pl', 'librpc-xml-perl'),
  },
  {
    name: 'Frontier',
    library: 'Perl Frontier::Daemon',
    packages: 'libfrontier-rpc-perl',
    unit: 'code points',
    start: perl('perl_frontier.pl', 'libfrontier-rpc-perl'),
  },
  {
    name: 'XMLRPC::Lite',
    library: 'Perl XMLRPC::Transport::HTTP::Daemon',
    packages: 'libxmlrpc-lite-perl',
    unit: 'code points',
    start: perl('perl_xmlrpc_lite.pl', 'libxmlrpc-lite-perl'),
  },
  {
    name: 'ruby-xmlrpc',
    library: 'Ruby XMLRPC::Server (WEBrick)',
    packages: 'ruby ruby-xmlrpc ruby-webrick',
    unit: 'code points',
    start: () => spawnReady('ruby', [join(SERVERS, 'ruby_xmlrpc.rb')], 'ruby ruby-xmlrpc ruby-webrick'),
  },
  { name: 'xmlrpc-c', library: 'C xmlrpc-c Abyss server', packages: 'gcc libxmlrpc-core-c3-dev', unit: 'UTF-8 bytes', start: startXmlrpcC },
  { name: 'Python', library: 'Python SimpleXMLRPCServer', packages: 'python3', unit: 'code points', start: python('simple') },
  {
    name: 'Python threaded',
    library: 'Python SimpleXMLRPCServer + ThreadingMixIn',
    packages: 'python3',
    unit: 'code points',
    start: python('threaded'),
  },
  {
    name: 'Python CGI',
    library: 'Python CGIXMLRPCRequestHandler, run by a CGI host that rewrites its header lines (as Apache httpd does)',
    packages: 'python3',
    unit: 'code points',
    start: python('cgi-host'),
  },
  {
    name: 'Python CGI (http.server)',
    library: "Python CGIXMLRPCRequestHandler, run by http.server's CGI handler (its output passed on unchanged)",
    packages: 'python3',
    unit: 'code points',
    start: python('cgi'),
  },
  {
    name: 'Apache (UTF-8)',
    library: 'Apache XML-RPC 3.1 wire forms, UTF-8 (hand-written)',
    packages: '',
    unit: 'UTF-16 units',
    start: () => apache('utf-8'),
  },
  {
    name: 'Apache (ISO-8859-1)',
    library: 'Apache XML-RPC 3.1 wire forms, ISO-8859-1 in the Content-Type only (hand-written)',
    packages: '',
    unit: 'UTF-16 units',
    start: () => apache('iso-8859-1'),
  },
];
