// `metaserver check-server URL [--protocol …] [--tasks …] [--method …] [--batch-size N]`: what a team runs on its own
// machine before registering. Sends the setup article and the hard articles
// (servers/setup-check/probe-articles.ts) one after the other, exactly as dispatch would, judges each
// answer as dispatch would, and prints what failed with the hints and the response times.
// Exit status 0 only when every answer is valid.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { canonicalNamespace } from '../tasks/concept-ids.ts';
import { loadConfig } from '../config.ts';
import { describeParams } from '../dispatch/request-body.ts';
import { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';
import { DEFAULT_PROTOCOL, PROTOCOL_NAMES, protocolOf, type ProtocolName } from '../dispatch/annotators/registry.ts';
import { protocolProblem } from '../servers/protocol-field.ts';
import { checkArticles, type CheckArticle } from '../servers/setup-check/probe-articles.ts';
import { checkArticle, type ArticleCheck } from '../servers/setup-check/call-server.ts';
import { AnswerReader } from '../dispatch/answer-reader.ts';
import type { Verdict } from '../dispatch/judge.ts';
import { policedLookup, urlProblem } from '../http/url-policy.ts';
import { createServerAgent } from '../dispatch/annotators/http-call.ts';
import { TASK_NAMES, isTaskName, tasksWith, type TaskName } from '../families/registry.ts';

/**
 * The tasks a server is registered for by default; a task that adds the `given` parameter
 * (COREF) is left out unless asked for, since one-parameter servers refuse it.
 */
const DEFAULT_TASKS: TaskName[] = tasksWith((f) => !f.given && f.web.preselected?.includes('server'));
const ERRORS_LISTED = 10;
const WARNINGS_LISTED = 3;

function parseTasks(value: string): TaskName[] {
  const tasks = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((t) => t.toUpperCase());
  const unknown = tasks.filter((t) => !isTaskName(t));
  if (tasks.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `unknown task ${unknown.join(', ')}; ` : ''}give one or more of ${TASK_NAMES.join(', ')}, separated by commas`,
    );
  }
  return [...new Set(tasks)] as TaskName[];
}

/** A comma-separated list option (`--mention-types A,B`): its items; absent: none given. */
function listOption(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * `--mention-namespaces Chemical=MESH,Disease=MESH;OMIM,*=MESH`: entity type = its
 * namespaces (`;` between them), pairs separated by commas, as the challenge's
 * mentionNamespaces setting holds them.
 */
export function parseMentionNamespaces(value: string): Record<string, string[]> {
  const rules: Record<string, string[]> = {};
  for (const pair of listOption(value) ?? []) {
    const [type, namespaces, extra] = pair.split('=').map((s) => s.trim());
    const list =
      namespaces
        ?.split(';')
        .map((n) => canonicalNamespace(n))
        .filter(Boolean) ?? [];
    if (!type || extra !== undefined || list.length === 0)
      throw new InvalidArgumentError(
        `"${pair}" is not TYPE=NS;NS: give each entity type its namespaces, as Chemical=MESH,Disease=MESH;OMIM (* for the other types)`,
      );
    rules[type] = list;
  }
  return rules;
}

/** What the options say of the challenge, as its rules. */
function rulesOf(options: Options) {
  return {
    mentionTypes: listOption(options.mentionTypes),
    mentionNamespaces: options.mentionNamespaces,
    relationTypes: listOption(options.relationTypes),
    topicLabels: listOption(options.topicLabels),
  };
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a number of seconds greater than 0');
  return seconds;
}

function parseBatchSize(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new InvalidArgumentError('expected a whole number from 1 to 100');
  return n;
}

interface Options {
  protocol: ProtocolName;
  tasks: TaskName[];
  method: string;
  metadata: boolean;
  batchSize: number;
  timeout: number;
  mentionTypes?: string;
  mentionNamespaces?: Record<string, string[]>;
  relationTypes?: string;
  topicLabels?: string;
  json: boolean;
}

interface Row {
  article: CheckArticle;
  check: ArticleCheck;
}

function characters(text: string): string {
  const n = [...text].length;
  return n >= 10_000 ? `${Math.round(Buffer.byteLength(text) / 1024)} KB` : `${n} character${n === 1 ? '' : 's'}`;
}

function printReport(url: string, options: Options, rows: Row[], articles: number, write: (line: string) => void): void {
  const protocol = protocolOf(options.protocol);
  write(
    `check-server ${url}: protocol ${protocol.name} (${protocol.label})${protocol.usesMethod ? `, method ${options.method}` : ''}, tasks ${options.tasks.join(', ')}`,
  );
  write(`each call sends ${describeParams({ tasks: options.tasks, sendMetadata: options.metadata })}`);
  write('');
  for (const { article, check } of rows) {
    const { verdict } = check;
    const status = verdict.outcome === 'ok' ? 'ok' : verdict.outcome.toUpperCase();
    write(`${status.padEnd(10)} ${`${check.ms} ms`.padStart(8)}  ${article.name} (${characters(article.text)})`);
    if (verdict.outcome !== 'ok') {
      // An invalid answer's detail repeats its first errors: the list below has them all.
      const n = verdict.errorCount;
      write(
        `           ${verdict.outcome === 'invalid' ? `the answer failed validation (${n} error${n === 1 ? '' : 's'}):` : verdict.detail}`,
      );
      for (const e of verdict.errors.slice(0, ERRORS_LISTED)) write(`           - ${e.path}: ${e.message}`);
      if (verdict.errorCount > ERRORS_LISTED) write(`           - … and ${verdict.errorCount - ERRORS_LISTED} more errors`);
    }
    for (const w of verdict.warnings.slice(0, WARNINGS_LISTED)) write(`           warning: ${w.path}: ${w.message}`);
    if (verdict.warningCount > WARNINGS_LISTED) write(`           … and ${verdict.warningCount - WARNINGS_LISTED} more warnings`);
  }
  const valid = rows.filter((r) => r.check.verdict.outcome === 'ok').length;
  const times = rows.map((r) => r.check.ms).sort((a, b) => a - b);
  const slowest = rows.reduce((a, b) => (b.check.ms > a.check.ms ? b : a));
  write('');
  write(
    `${valid} of ${rows.length} answers valid; response times: median ${times[Math.floor(times.length / 2)]} ms, ` +
      `slowest ${slowest.check.ms} ms (${slowest.article.name})`,
  );
  if (rows.length < articles) write('The server could not be reached, so nothing else was sent.');
  else if (valid < rows.length) write('Fix what is listed above and run the check again; dispatch judges every answer the same way.');
}

/** The command's arguments and options (commander). */
function checkServerProgram(): Command {
  return new Command('check-server')
    .description('call an annotation server with the setup article and hard articles, and judge every answer as dispatch would')
    .argument('<url>', 'the server URL, as you would register it (e.g. http://127.0.0.1:8000/RPC2)')
    .addOption(
      new Option(
        '--tasks <list>',
        `tasks the server answers, separated by commas (${tasksWith((f) => f.given).join(', ')} adds the given parameter)`,
      )
        .argParser(parseTasks)
        .default(DEFAULT_TASKS, DEFAULT_TASKS.join(',')),
    )
    .addOption(
      new Option('--protocol <name>', 'the protocol the server speaks, as you would register it')
        .choices(PROTOCOL_NAMES)
        .default(DEFAULT_PROTOCOL),
    )
    .option('--method <name>', 'XML-RPC method name', DEFAULT_METHOD)
    .option('--metadata', 'also send the metadata struct {article, tasks}, as servers registered with sendMetadata get it', false)
    .option(
      '--batch-size <n>',
      'send each article in the batch form, as servers registered with batchSize n get them (XML-RPC system.multicall, a JSON array)',
      parseBatchSize,
      1,
    )
    .option('--timeout <seconds>', 'deadline of each call (a challenge allows 600 s by default)', parseSeconds, 60)
    .option('--mention-types <list>', "the challenge's mention types, separated by commas (default: any type)")
    .option(
      '--mention-namespaces <rules>',
      "the namespaces of each mention type's ids, as Chemical=MESH,Disease=MESH;OMIM (* for the other types; default: any namespace)",
      parseMentionNamespaces,
    )
    .option('--relation-types <list>', "the challenge's relation types, separated by commas (default: DrugProt's 13)")
    .option('--topic-labels <list>', "the challenge's TOPIC labels, separated by commas (default: LitCovid's seven)")
    .option('--json', 'print the results as JSON', false)
    .exitOverride();
}

/** Runs the command; resolves with the exit code (0: every answer valid, 1: not, 2: bad usage). */
export async function runCheckServerCommand(
  argv: string[],
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const program = checkServerProgram();
  let url: string;
  let options: Options;
  try {
    program.parse(argv, { from: 'user' });
    url = program.args[0]!;
    options = program.opts<Options>();
    // A protocol that answers some tasks only (PubAnnotation: mentions) is checked for those
    // when no tasks are named.
    const only = protocolOf(options.protocol).tasks;
    if (only && program.getOptionValueSource('tasks') === 'default') options.tasks = [...only];
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
  const unfit = protocolProblem(options.protocol, { tasks: options.tasks, url, batchSize: options.batchSize });
  if (unfit) {
    process.stderr.write(`check-server: ${unfit}\n`);
    return 2;
  }
  const problem = urlProblem(url, false);
  if (problem) {
    process.stderr.write(`check-server: ${problem}\n`);
    return 2;
  }
  const server = {
    url,
    protocol: options.protocol,
    method: options.method,
    tasks: options.tasks,
    sendMetadata: options.metadata,
    batchSize: options.batchSize,
  };
  // One connection, reused: the articles go one after the other, and a server that serves
  // one connection at a time must not wait for a second one.
  // Its connect timeout is the deadline: a host that drops SYNs ends each call within it.
  const agent = createServerAgent({ connections: 1, lookup: policedLookup(false), connectTimeoutMs: options.timeout * 1000 });
  const opts = {
    agent,
    deadlineMs: options.timeout * 1000,
    maxAnswerBytes: loadConfig().maxAnswerBytes,
    // No release indexes: accession patterns only (the meta-server may also look them up in a UniProt release).
    answers: new AnswerReader(),
    publicUrlsOnly: false,
    rules: rulesOf(options),
  };
  const rows: Row[] = [];
  const articles = checkArticles();
  try {
    for (const article of articles) {
      rows.push({ article, check: await checkArticle(server, article, opts) });
      // Unreachable: the other articles would only say the same.
      if (rows.length === 1 && rows[0].check.verdict.outcome === 'connection') break;
    }
  } finally {
    await Promise.all([agent.close(), opts.answers.close()]);
  }
  if (options.json) {
    write(
      JSON.stringify(
        {
          ...server,
          articles: rows.map((r) => ({ id: r.article.id, name: r.article.name, ms: r.check.ms, ...withoutAnswer(r.check.verdict) })),
        },
        null,
        2,
      ),
    );
  } else {
    printReport(url, options, rows, articles.length, write);
  }
  return rows.every((r) => r.check.verdict.outcome === 'ok') ? 0 : 1;
}

/** A verdict for the JSON report: the stored form of the answer (JSON texts) is left out. */
function withoutAnswer(verdict: Verdict): Omit<Verdict, 'answer'> {
  const { answer: _stored, ...shown } = verdict;
  return shown;
}
