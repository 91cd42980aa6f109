// The `metaserver` command line. Subcommands that belong to one domain live in src/cli/
// and are loaded only when used, so `metaserver score` does not start a database.
import closeWithGrace from 'close-with-grace';
import { Command } from 'commander';
import { ConfigError, loadConfig, SETTINGS, type Config } from './config.ts';
import { createLogger } from './log.ts';
import { RedisUnavailableError } from './queue/redis-launcher.ts';

/** Time, beyond the configured grace for requests in flight, to hand jobs back and close connections. */
const SHUTDOWN_MARGIN_MS = 15_000;

async function runService(config: Config, mode: { api: boolean; workers: boolean }): Promise<void> {
  const log = createLogger(config);
  const started = Date.now();
  const { createRuntime } = await import('./runtime.ts');
  const runtime = await createRuntime({ config, log, ...mode });
  if (runtime.app) {
    const address = await runtime.app.listen({ port: config.port, host: config.host });
    log.info({ address, ms: Date.now() - started, workers: mode.workers }, `metaserver is serving on ${address} (API docs at ${address}/docs)`);
  } else {
    log.info({ ms: Date.now() - started, servers: runtime.pool?.size }, 'metaserver worker is taking jobs');
  }
  // SIGTERM: stop taking jobs, let requests in flight finish for up to shutdownGraceMs,
  // hand the rest back to the queue for another worker, then exit 0.
  closeWithGrace({ delay: config.shutdownGraceMs + SHUTDOWN_MARGIN_MS }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'stopping after an unexpected error');
    else log.info({ signal, graceMs: config.shutdownGraceMs }, 'stopping: no new jobs are taken, requests in flight may finish within the grace period');
    await runtime.close({ graceMs: config.shutdownGraceMs });
    log.info('stopped');
  });
}

function printConfig(config: Config): void {
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const value = key === 'adminToken' && config.adminToken ? '(set)' : JSON.stringify(config[key as keyof Config]);
    process.stdout.write(`${key} = ${value}\n    env ${spec.env}: ${spec.description}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  const program = new Command('metaserver')
    .description('BioCreative-style annotation meta-server')
    .showHelpAfterError()
    .enablePositionalOptions();

  let exitCode: number | undefined;
  program.command('serve', { isDefault: true }).description('run the HTTP API and the queue workers in one process').action(async () => {
    await runService(loadConfig(), { api: true, workers: true });
  });
  program.command('api').description('run the HTTP API only (workers run elsewhere)').action(async () => {
    await runService(loadConfig(), { api: true, workers: false });
  });
  program.command('worker').description('run queue workers only, for scale-out (needs DATABASE_URL and REDIS_URL shared with the API)').action(async () => {
    const config = loadConfig();
    if (!config.databaseUrl) {
      throw new ConfigError('a separate worker process needs a shared PostgreSQL: set DATABASE_URL (the embedded PGlite database belongs to one process)');
    }
    await runService(config, { api: false, workers: true });
  });
  program.command('migrate').description('apply database migrations and exit').action(async () => {
    const config = loadConfig();
    const { openDatabase } = await import('./db/open.ts');
    const db = await openDatabase(config, createLogger(config));
    await db.close();
    exitCode = 0;
  });
  program.command('config').description('print every setting, its value and its environment variable').action(() => {
    printConfig(loadConfig());
    exitCode = 0;
  });
  program
    .command('sample-server')
    .description('run the sample XML-RPC annotation server')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runSampleServerCommand } = await import('./cli/sample-server.ts');
      exitCode = await runSampleServerCommand(args);
    });
  program
    .command('uniprot')
    .description('build or query a UniProt release index (uniprot build | lookup)')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runUniprotCommand } = await import('./cli/uniprot.ts');
      exitCode = await runUniprotCommand(args);
    });
  program
    .command('score')
    .description('score runs against a gold standard (ACT|INT|IPT|MENTION|COREF)')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runScoreCommand } = await import('./cli/score.ts');
      exitCode = await runScoreCommand(args, await import('./cli/score-io.ts').then((m) => m.processIo()));
    });

  program
    .command('testsuite')
    .description('feature-based test suites for mention servers (list-features | generate | report)')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runTestsuiteCommand } = await import('./cli/testsuite.ts');
      exitCode = await runTestsuiteCommand(args);
    });

  program
    .command('import')
    .description('load a directory of .txt/.nxml articles into a challenge through the API of a running meta-server')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runImportCommand } = await import('./cli/import.ts');
      exitCode = await runImportCommand(args);
    });
  program
    .command('export')
    .description("export a server's answers for a task (tsv, bioc-xml, bioc-json, brat, pubannotation, bio, a2) through the API")
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runExportCommand } = await import('./cli/export.ts');
      exitCode = await runExportCommand(args);
    });

  await program.parseAsync(argv, { from: 'user' });
  return exitCode ?? -1;
}

try {
  const code = await main(process.argv.slice(2));
  // -1: a long-running service; it exits through closeWithGrace.
  if (code >= 0) process.exit(code);
} catch (err) {
  if (err instanceof ConfigError || err instanceof RedisUnavailableError) {
    process.stderr.write(`metaserver: ${err.message}\n`);
  } else {
    process.stderr.write(`metaserver: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
}
