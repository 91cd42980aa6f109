// The `metaserver` command line. Subcommands that belong to one domain live in src/cli/
// and are loaded only when used, so `metaserver score` does not start a database.
import closeWithGrace from 'close-with-grace';
import { Command } from 'commander';
import { ConfigError, loadConfig, SETTINGS, type Config } from './config.ts';
import { ALL_FAMILIES, TASK_NAMES } from './families/registry.ts';
import { RedisUnavailableError } from './queue/redis-errors.ts';
import { DataDirInUseError } from './queue/data-dir-lock.ts';
import { redactUrl } from './shared/redact-url.ts';

/** Time, beyond the configured grace for requests in flight, to hand jobs back and close connections. */
const SHUTDOWN_MARGIN_MS = 15_000;

async function runService(config: Config, mode: { api: boolean; workers: boolean }): Promise<void> {
  const { createLogger } = await import('./log.ts'); // loaded by the services only, not by `score`
  const log = createLogger(config);
  const started = Date.now();
  const { createRuntime } = await import('./runtime.ts');
  const runtime = await createRuntime({ config, log, ...mode });
  const { describeDatabase, describeRedis } = await import('./cli/banner.ts');
  const database = describeDatabase(config);
  const redis = describeRedis(runtime.redis, config);
  if (runtime.app) {
    const address = await runtime.app.listen({ port: config.port, host: config.host });
    log.info(
      { address, ms: Date.now() - started, workers: mode.workers, database, redis },
      `metaserver is serving on ${address} (API docs at ${address}/docs); database: ${database}; Redis: ${redis}`,
    );
  } else {
    log.info(
      { ms: Date.now() - started, servers: runtime.pool?.size, database, redis },
      `metaserver worker is taking jobs; database: ${database}; Redis: ${redis}`,
    );
  }
  // SIGTERM: stop taking jobs, let requests in flight finish for up to shutdownGraceMs,
  // hand the rest back to the queue for another worker, then exit 0.
  closeWithGrace({ delay: config.shutdownGraceMs + SHUTDOWN_MARGIN_MS }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'stopping after an unexpected error');
    else
      log.info(
        { signal, graceMs: config.shutdownGraceMs },
        'stopping: no new jobs are taken, requests in flight may finish within the grace period',
      );
    await runtime.close({ graceMs: config.shutdownGraceMs });
    log.info('stopped');
  });
}

function printConfig(config: Config): void {
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const raw = config[key as keyof Config];
    // Connection URLs carry passwords: shown as `***`, like the token as `(set)`.
    const value = key === 'adminToken' && config.adminToken ? '(set)' : JSON.stringify(typeof raw === 'string' ? redactUrl(raw) : raw);
    process.stdout.write(`${key} = ${value}\n    env ${spec.env}: ${spec.description}\n`);
  }
}

/** Keeps the exit code a command's action leaves for main; a service leaves none and runs on. */
type Finish = (code: number) => void;

/** The commands that run or prepare this installation: its services, its migrations, its settings. */
function registerServiceCommands(program: Command, finish: Finish): void {
  program
    .command('serve', { isDefault: true })
    .description('run the HTTP API and the queue workers in one process')
    .action(async () => {
      await runService(loadConfig(), { api: true, workers: true });
    });
  program
    .command('api')
    .description('run the HTTP API only (workers run elsewhere)')
    .action(async () => {
      await runService(loadConfig(), { api: true, workers: false });
    });
  program
    .command('worker')
    .description('run queue workers only, for scale-out (needs DATABASE_URL and REDIS_URL shared with the API)')
    .action(async () => {
      const config = loadConfig();
      if (!config.databaseUrl) {
        throw new ConfigError(
          'a separate worker process needs a shared PostgreSQL: set DATABASE_URL (the embedded PGlite database belongs to one process)',
        );
      }
      await runService(config, { api: false, workers: true });
    });
  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(async () => {
      const config = loadConfig();
      const { openDatabase } = await import('./db/open.ts');
      const { createLogger } = await import('./log.ts');
      const db = await openDatabase(config, createLogger(config));
      await db.close();
      finish(0);
    });
  program
    .command('config')
    .description('print every setting, its value and its environment variable')
    .action(() => {
      printConfig(loadConfig());
      finish(0);
    });
}

/** Domain commands parse their own options; each is loaded only when it is used. */
function registerDomainCommands(program: Command, finish: Finish): void {
  const delegate = (name: string, description: string, run: (args: string[]) => Promise<number>) =>
    program
      .command(name)
      .description(description)
      .allowUnknownOption()
      .helpOption(false)
      .argument('[args...]')
      .action(async (args: string[]) => {
        finish(await run(args));
      });
  delegate('sample-server', 'run the sample XML-RPC annotation server', async (args) =>
    (await import('./cli/sample-server.ts')).runSampleServerCommand(args),
  );
  delegate(
    'check-server',
    'call an annotation server with the setup article and hard articles, judging each answer as dispatch would (before registering)',
    async (args) => (await import('./cli/check-server.ts')).runCheckServerCommand(args),
  );
  delegate('uniprot', 'build or query a UniProt release index (uniprot build | lookup)', async (args) =>
    (await import('./cli/uniprot.ts')).runUniprotCommand(args),
  );
  delegate('score', `score runs against a gold standard (${TASK_NAMES.join('|')})`, async (args) =>
    (await import('./cli/score.ts')).runScoreCommand(args, (await import('./cli/score-io.ts')).processIo()),
  );
  delegate('testsuite', 'feature-based test suites for mention servers (list-features | generate | run | report)', async (args) =>
    (await import('./cli/testsuite.ts')).runTestsuiteCommand(args),
  );
  delegate('import', 'load a directory of .txt/.nxml articles into a challenge through the API of a running meta-server', async (args) =>
    (await import('./cli/import.ts')).runImportCommand(args),
  );
  delegate(
    'mark-scored',
    'say which articles of a challenge the leaderboards score, the others being background (or print the counts) through the API',
    async (args) => (await import('./cli/mark-scored.ts')).runMarkScoredCommand(args),
  );
  delegate(
    'export',
    "export a server's answers for a task (tsv, bioc-xml, bioc-json, brat, pubannotation, bio, a2, pubtator, as its family offers), or with --runs every run of a challenge as one .tar.gz, through the API",
    async (args) => (await import('./cli/export.ts')).runExportCommand(args),
  );
  delegate(
    'health',
    'check the API (or with --worker, the worker) process on this machine: exit 0 when healthy (container health checks)',
    async (args) => (await import('./cli/health.ts')).runHealthCommand(args),
  );
  delegate(
    'backup',
    'write a backup of the database to a file (backup --out FILE [--from URL of a serving PGlite installation])',
    async (args) => (await import('./cli/backup.ts')).runBackupCommand(args),
  );
  delegate(
    'restore',
    'restore a backup file into a fresh installation (the empty data directory, or the fresh database DATABASE_URL names)',
    async (args) => (await import('./cli/backup.ts')).runRestoreCommand(args),
  );
  delegate(
    'agent',
    'take the articles of a pull server on lease over HTTPS and answer them with your own annotation server (teams behind firewalls)',
    async (args) => (await import('./cli/agent.ts')).runAgentCommand(args),
  );
  // Commands of the task families (e.g. building a release index they validate against).
  for (const family of ALL_FAMILIES)
    for (const command of family.commands ?? []) delegate(command.name, command.description, (args) => command.run(args));
}

async function main(argv: string[]): Promise<number> {
  const program = new Command('metaserver')
    .description('BioCreative-style annotation meta-server')
    .showHelpAfterError()
    .enablePositionalOptions();
  let exitCode: number | undefined;
  const finish: Finish = (code) => {
    exitCode = code;
  };
  registerServiceCommands(program, finish);
  registerDomainCommands(program, finish);
  await program.parseAsync(argv, { from: 'user' });
  return exitCode ?? -1;
}

try {
  const code = await main(process.argv.slice(2));
  // -1: a long-running service; it exits through closeWithGrace.
  if (code >= 0) process.exit(code);
} catch (err) {
  if (err instanceof ConfigError || err instanceof RedisUnavailableError || err instanceof DataDirInUseError) {
    process.stderr.write(`metaserver: ${err.message}\n`);
  } else {
    process.stderr.write(`metaserver: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
}
