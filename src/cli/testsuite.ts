// `metaserver testsuite list-features | generate | report | run`: feature-based test suites
// (Cohen et al. 2004). generate writes a suite directory; report scores one server's
// answers (JSONL `{id, mentions}`) against it offline; run sends a suite to registered
// servers through a meta-server's API and prints the reports. Exit codes: 0 done, 1 a bad
// input file or a refusal of the server, 2 a bad command line (including a query that
// does not parse, also when the server says so).

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { CatalogueError } from '../testsuites/catalogue.ts';
import { loadBuiltInCatalogue, parseEntities, parseSentences } from '../testsuites/catalogue-io.ts';
import { FEATURE_SPECS, valuesOf } from '../testsuites/feature-specs.ts';
import { generateSuite, selectEntities, selectSentences } from '../testsuites/generate.ts';
import { QuerySyntaxError } from '../testsuites/query.ts';
import { buildReport, formatReportJson, formatReportTsv } from '../testsuites/report.ts';
import { ApiCallError } from './api-client.ts';
import { RunArgumentError, runSuiteCommand } from './testsuite-run.ts';
import { readSuite, readAnswers, SuiteFileError, suiteFiles } from '../testsuites/suite-files.ts';
import type { Catalogue } from '../testsuites/types.ts';

export interface TestsuiteIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const processIo: TestsuiteIo = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) };

class UsageError extends Error {}

async function catalogueFrom(o: {
  entities?: string;
  sentences?: string;
}): Promise<Catalogue & { from: { entities: string; sentences: string } }> {
  const builtIn = !o.entities || !o.sentences ? await loadBuiltInCatalogue() : undefined;
  const read = async (path: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new CatalogueError(`cannot read the file: ${(error as Error).message}`, { file: path });
    }
  };
  return {
    entities: o.entities ? parseEntities(await read(o.entities), o.entities) : builtIn!.entities,
    sentences: o.sentences ? parseSentences(await read(o.sentences), o.sentences) : builtIn!.sentences,
    from: { entities: o.entities ?? 'built-in', sentences: o.sentences ?? 'built-in' },
  };
}

async function listFeatures(o: { entities?: string; sentences?: string; format: string }, io: TestsuiteIo): Promise<void> {
  const cat = await catalogueFrom(o);
  const rows = FEATURE_SPECS.map((spec) => {
    const pool = spec.scope === 'entity' ? cat.entities.map((e) => e.features) : cat.sentences.map((s) => s.features);
    const counts = new Map<string, number>();
    for (const f of pool) for (const v of valuesOf(f[spec.key])) counts.set(v, (counts.get(v) ?? 0) + 1);
    const order = spec.values ?? [...counts.keys()].sort((a, b) => (spec.type === 'number' ? Number(a) - Number(b) : a.localeCompare(b)));
    const values = Object.fromEntries([...new Set([...order, ...counts.keys()])].map((v) => [v, counts.get(v) ?? 0]));
    return { key: spec.key, scope: spec.scope, type: spec.type, description: spec.description, values };
  });
  if (o.format === 'json') {
    io.stdout(JSON.stringify({ entities: cat.entities.length, sentences: cat.sentences.length, features: rows }, null, 2) + '\n');
    return;
  }
  io.stdout(`${cat.entities.length} entities (${cat.from.entities}), ${cat.sentences.length} sentences (${cat.from.sentences})\n\n`);
  for (const r of rows) {
    io.stdout(
      `${r.key}  [${r.scope}, ${r.type}]  ${r.description}\n    ${Object.entries(r.values)
        .map(([v, n]) => `${v} (${n})`)
        .join(', ')}\n`,
    );
  }
}

interface GenerateOptions {
  entities?: string;
  sentences?: string;
  entityQuery?: string;
  sentenceQuery?: string;
  sample?: string;
  seed?: string;
  out: string;
}

async function generate(o: GenerateOptions, io: TestsuiteIo): Promise<void> {
  const sample = o.sample === undefined ? undefined : Number(o.sample);
  if (sample !== undefined && !(Number.isInteger(sample) && sample > 0))
    throw new UsageError(`--sample must be a positive integer, not "${o.sample}"`);
  if (o.seed !== undefined && sample === undefined) throw new UsageError('--seed only applies with --sample');
  const cat = await catalogueFrom(o);
  const entities = selectEntities(cat.entities, o.entityQuery);
  const sentences = selectSentences(cat.sentences, o.sentenceQuery);
  const suite = generateSuite(entities, sentences, { sample, seed: o.seed ?? 0 });
  const files = suiteFiles(suite, {
    entities: cat.from.entities,
    sentences: cat.from.sentences,
    entityQuery: o.entityQuery ?? null,
    sentenceQuery: o.sentenceQuery ?? null,
    sample: sample ?? null,
    seed: sample === undefined ? null : (o.seed ?? '0'),
    selectedEntities: entities.length,
    selectedSentences: sentences.length,
  });
  await mkdir(join(o.out, 'inputs'), { recursive: true });
  for (const [name, content] of files) await writeFile(join(o.out, name), content);
  io.stdout(`wrote ${suite.items.length} items (of a product of ${suite.productSize}) to ${o.out}\n`);
}

async function report(o: { suite: string; answers: string; by?: string[]; format: string }, io: TestsuiteIo): Promise<void> {
  const items = await readSuite(o.suite);
  const answers = await readAnswers(o.answers);
  const by = (o.by ?? []).map((b) =>
    b
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  );
  for (const key of by.flat())
    if (!FEATURE_SPECS.some((s) => s.key === key))
      throw new UsageError(`--by: unknown feature "${key}" (see: metaserver testsuite list-features)`);
  const ids = new Set(items.map((i) => i.id));
  const unknown = [...answers.keys()].filter((id) => !ids.has(id));
  if (unknown.length) io.stderr(`warning: ${unknown.length} answer(s) for items not in the suite, ignored (first: ${unknown[0]})\n`);
  const result = buildReport(items, answers, { by });
  if (result.missingAnswers.length)
    io.stderr(`warning: no answer for ${result.missingAnswers.length} item(s), scored as empty (first: ${result.missingAnswers[0]})\n`);
  io.stdout(o.format === 'tsv' ? formatReportTsv(result) : formatReportJson(result));
}

function buildProgram(io: TestsuiteIo, run: (p: Promise<void>) => void): Command {
  const program = new Command('testsuite')
    .description('feature-based test suites for MENTION servers (Cohen et al. 2004)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  program
    .command('list-features')
    .description('the features and their values in a catalogue')
    .option('--entities <file>', 'entity catalogue (record format or JSON; default: built-in)')
    .option('--sentences <file>', 'sentence catalogue (default: built-in)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((o: Parameters<typeof listFeatures>[0]) => run(listFeatures(o, io)));
  program
    .command('generate')
    .description('insert entities into sentence frames; write inputs, gold and a manifest')
    .option('--entities <file>', 'entity catalogue (default: built-in)')
    .option('--sentences <file>', 'sentence catalogue (default: built-in)')
    .option('--entity-query <query>', 'select entities, e.g. "case=lower-initial AND numeral.position=final"')
    .option('--sentence-query <query>', 'select sentences, e.g. "type=tp AND slot.position=I"')
    .option('--sample <n>', 'keep a seeded sample of n items of the product')
    .option('--seed <seed>', 'seed of the sample (default 0)')
    .requiredOption('--out <dir>', 'output directory')
    .action((o: Parameters<typeof generate>[0]) => run(generate(o, io)));
  program
    .command('report')
    .description('score answers (JSONL {id, mentions}) per feature class')
    .requiredOption('--suite <dir>', 'a directory written by generate')
    .requiredOption('--answers <file>', 'JSONL, one {"id", "mentions": [{start, end, …}]} per line')
    .option('--by <features>', 'a combination to report, e.g. case,slot.position (repeatable)', (v: string, prev: string[] = []) => [
      ...prev,
      v,
    ])
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'tsv']).default('json'))
    .action((o: Parameters<typeof report>[0]) => run(report(o, io)));
  program
    .command('run')
    .description('run a suite on registered MENTION servers through a meta-server; print the reports')
    .requiredOption('--url <url>', 'the meta-server, e.g. http://127.0.0.1:8080')
    .requiredOption('--token <token>', "organiser token, or a team token for the team's own servers")
    .requiredOption('--name <name>', 'name of the run (lower-case letters, digits, hyphens)')
    .requiredOption('--server <id>', 'a registered server offering MENTION (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--entity-query <query>', 'select entities of the built-in catalogue')
    .option('--sentence-query <query>', 'select sentences of the built-in catalogue')
    .option('--sample <n>', 'keep a seeded sample of n items')
    .option('--seed <seed>', 'seed of the sample (default 0)')
    .option('--suite <dir>', 'send a directory written by generate instead')
    .option('--wait', 'wait until every server is done, then print the reports')
    .option('--by <features>', 'a combination to report, e.g. case,slot.position (repeatable)', (v: string, prev: string[] = []) => [
      ...prev,
      v,
    ])
    .addOption(new Option('--format <format>', 'report format').choices(['json', 'tsv']).default('json'))
    .option('--interval <ms>', 'polling interval with --wait', '1000')
    .option('--timeout <seconds>', 'give up waiting after this long (the run goes on)')
    .action((o: Parameters<typeof runSuiteCommand>[0]) => run(runSuiteCommand(o, io)));
  return program;
}

export async function runTestsuiteCommand(argv: string[], io: TestsuiteIo = processIo): Promise<number> {
  let work: Promise<void> | undefined;
  const program = buildProgram(io, (p) => {
    work = p;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (!work) {
      io.stderr('error: name a subcommand: list-features, generate, report or run\n');
      return 2;
    }
    await work;
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof ApiCallError) {
      io.stderr(`error: ${error.message}\n`);
      return error.status === 400 ? 2 : 1;
    }
    if (error instanceof UsageError || error instanceof QuerySyntaxError || error instanceof RunArgumentError) {
      io.stderr(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CatalogueError || error instanceof SuiteFileError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
