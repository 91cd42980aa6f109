// `metaserver sample-server --port N [--host H] [--method NAME] [--protocol json|pubannotation [--async]]`: runs the sample
// annotation server until SIGINT/SIGTERM, so a team (or an organiser rehearsing a
// challenge) has a working endpoint to register in one command.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_METHOD, startSampleServer } from '../sample/server.ts';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('expected a TCP port number between 0 and 65535 (0 picks a free one)');
  }
  return port;
}

interface Options {
  port: number;
  host: string;
  method: string;
  protocol: 'xmlrpc' | 'json' | 'pubannotation';
  async: boolean;
}

/** Runs the command; resolves with the process exit code once the server has stopped. */
export async function runSampleServerCommand(argv: string[]): Promise<number> {
  const program = new Command('sample-server')
    .description('run the sample XML-RPC annotation server (answers all nine tasks with simple rules)')
    .requiredOption('--port <port>', 'TCP port to listen on (0 picks a free one)', parsePort)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--method <name>', 'XML-RPC method name to answer', DEFAULT_METHOD)
    .addOption(
      new Option('--protocol <name>', 'answer in this protocol (register the server with the same)')
        .choices(['xmlrpc', 'json', 'pubannotation'])
        .default('xmlrpc'),
    )
    .option('--async', 'PubAnnotation only: answer asynchronously (303 See Other, then the result at its own URL)', false)
    .exitOverride();

  let options: Options;
  try {
    program.parse(argv, { from: 'user' });
    options = program.opts<Options>();
    if (options.async && options.protocol !== 'pubannotation')
      program.error("sample-server: --async goes with --protocol pubannotation (the asynchronous form is PubAnnotation's)");
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander already printed the message or help
    throw err;
  }

  let server;
  try {
    server = await startSampleServer({
      port: options.port,
      host: options.host,
      method: options.method,
      protocol: options.protocol,
      async: options.async,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const hint = code === 'EADDRINUSE' ? ' — the port is taken; pick another with --port' : '';
    process.stderr.write(`sample-server: cannot listen on ${options.host}:${options.port}: ${(err as Error).message}${hint}\n`);
    return 1;
  }
  const speaks =
    options.protocol === 'xmlrpc' ? `method ${options.method}` : `protocol ${options.protocol}${options.async ? ', asynchronous' : ''}`;
  process.stdout.write(`sample annotation server listening on ${server.url} (${speaks}); stop with Ctrl-C\n`);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  process.stdout.write('sample annotation server stopped\n');
  return 0;
}
