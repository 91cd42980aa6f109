// `metaserver agent`: runs next to a team's annotation server that the meta-server cannot
// reach, taking its articles on lease over HTTPS (src/agent, the pull protocol).
import { Command, CommanderError, Option } from 'commander';
import { concurrencyWords, PullAgent } from '../agent/agent.ts';
import { execCommand, forwardTo, type LocalServer } from '../agent/local-server.ts';
import { MetaLink } from '../agent/meta-link.ts';
import { DEFAULT_PROTOCOL, PROTOCOL_NAMES, type ProtocolName } from '../dispatch/annotators/registry.ts';
import { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';

interface Options {
  url?: string;
  token?: string;
  server: number;
  forward?: string;
  protocol: ProtocolName;
  method: string;
  exec?: string;
  concurrency: number;
  wait: number;
  maxAnswerBytes: number;
}

function positiveInt(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new CommanderError(2, 'agent.usage', `${what} must be a whole number from 1 to ${max}, not "${value}"`);
    return n;
  };
}

/**
 * Runs the agent until SIGINT/SIGTERM (leases held are given back) or a refusal that
 * trying again cannot mend (wrong token or server). Resolves with the exit code.
 */
export async function runAgentCommand(
  argv: string[],
  log: (line: string) => void = (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
): Promise<number> {
  const program = new Command('agent')
    .description(
      'take the articles of a pull server on lease over HTTPS and answer them with your own annotation server (only outbound connections)',
    )
    .option('--url <url>', 'the meta-server (default METASERVER_URL)')
    .option('--token <token>', 'your team token (default METASERVER_TOKEN)')
    .requiredOption('--server <id>', 'the id of your server registered with protocol pull', positiveInt('--server', 2_147_483_647))
    .option('--forward <url>', 'hand each article to your annotation server at this URL')
    .addOption(
      new Option('--protocol <name>', 'the protocol your server at --forward speaks').choices(PROTOCOL_NAMES).default(DEFAULT_PROTOCOL),
    )
    .option('--method <name>', 'XML-RPC method name (protocol xmlrpc)', DEFAULT_METHOD)
    .option(
      '--exec <command>',
      'run this shell command per article: the article as JSON on standard input, the answer as JSON on standard output',
    )
    .option(
      '--concurrency <n>',
      "leases held at once (the server's registered concurrency is the limit across all its agents)",
      positiveInt('--concurrency', 100),
      1,
    )
    .option('--wait <seconds>', 'how long each lease request waits for work', positiveInt('--wait', 60), 30)
    .option(
      '--max-answer-bytes <n>',
      'largest answer read from your server',
      positiveInt('--max-answer-bytes', 2 ** 31 - 1),
      20 * 1024 * 1024,
    )
    .exitOverride();
  let options: Options;
  try {
    program.parse(argv, { from: 'user' });
    options = program.opts<Options>();
    if (!options.forward === !options.exec) throw new CommanderError(2, 'agent.usage', 'give one of --forward URL or --exec "command"');
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'agent.usage') process.stderr.write(`error: ${err.message}\n`);
      return err.exitCode === 0 ? 0 : 2;
    }
    throw err;
  }
  const url = (options.url ?? process.env.METASERVER_URL ?? '').replace(/\/+$/, '');
  const token = options.token ?? process.env.METASERVER_TOKEN ?? '';
  if (!url || !token) {
    process.stderr.write(
      'error: give the meta-server with --url (or METASERVER_URL) and your team token with --token (or METASERVER_TOKEN)\n',
    );
    return 2;
  }
  const local: LocalServer = options.forward
    ? forwardTo(options.forward, options.protocol, {
        method: options.method,
        connections: options.concurrency,
        maxAnswerBytes: options.maxAnswerBytes,
      })
    : execCommand(options.exec!, { maxAnswerBytes: options.maxAnswerBytes });
  const link = new MetaLink({ url, token, serverId: options.server }, options.concurrency);
  const agent = new PullAgent({ link, local, concurrency: options.concurrency, waitSeconds: options.wait, log });

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) process.exit(130); // a second signal: stop at once, leases left to their deadline
    log(`${signal}: giving back the leases held and stopping`);
    void agent.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const upTo = await concurrencyWords(link, options.concurrency, log);
  log(
    `agent for server ${options.server} at ${url}: ${options.forward ? `forwarding to ${options.forward} (${options.protocol})` : `running ${options.exec}`}, ${upTo}`,
  );
  agent.start();
  await agent.done();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await Promise.all([link.close(), local.close()]);
  const c = agent.counts;
  log(`stopped: ${c.leased} leased, ${c.stored} answered, ${c.refused} refused, ${c.failed} reported as failed, ${c.givenBack} given back`);
  return agent.fatal ? 1 : 0;
}
