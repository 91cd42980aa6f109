// Starts examples/python/annotation_server.py (Python standard library only) on a free
// loopback port and resolves once it prints its ready line.
import { EXAMPLE_SERVERS, startExampleServer, type ExampleServer } from './example-servers.ts';

export const PYTHON_SERVER_SCRIPT = EXAMPLE_SERVERS.python.script;

export type PythonServer = ExampleServer;

export function startPythonServer(extraArgs: string[] = []): Promise<PythonServer> {
  return startExampleServer('python', extraArgs);
}
