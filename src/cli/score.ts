// `metaserver score TASK --gold … RUN…`: reads gold and run files through the injected
// io, scores them with the task family's scorer (src/families/*: `scoring.cli`, on the
// pure scoring library) and prints one report (JSON, TSV or a text table). Exit codes: 0
// scored, 1 a bad input file, 2 a bad command line.

import { Command, CommanderError, Option } from 'commander';
import { ALL_FAMILIES } from '../families/registry.ts';
import type { FamilyScoreCli } from '../families/family.ts';
import { COLUMN_LAYOUTS, REPORT_FORMATS, ScoringInputError, formatReport } from '../scoring/index.ts';
import { SCORE_FILE_FORMATS, ScoreFiles, UsageError, type ScoreFlag, type ScoreFlags, type ScoreIo } from '../scoring/score-files.ts';

export type { ScoreIo } from '../scoring/score-files.ts';

const FLAG: Partial<Record<ScoreFlag, string>> = { singleClass: '--single-class', of: '--of', ho: '--ho' };
const FLAGS: readonly ScoreFlag[] = [
  'given',
  'entities',
  'pmids',
  'columns',
  'all',
  'cutoff',
  'ho',
  'of',
  'beta',
  'singleClass',
  'lenient',
  'type',
];

/** Every scorer `metaserver score` knows: each task's own, then the other scorers the families add (NORM, CID). */
const SCORERS: ReadonlyMap<string, FamilyScoreCli> = new Map([
  ...ALL_FAMILIES.map((f) => [f.name, f.scoring.cli] as const),
  ...ALL_FAMILIES.flatMap((f) => Object.entries(f.scoring.scorers ?? {})),
]);
const SCORER_NAMES = [...SCORERS.keys()];

/** "INT/IPT: " — the scorers a flag applies to, as its help text starts. */
const forTasks = (flag: ScoreFlag): string =>
  `${[...SCORERS]
    .filter(([, cli]) => cli.flags.includes(flag))
    .map(([name]) => name)
    .join('/')}: `;

/** The formats each scorer reads, as the help lists them: from the scorers' own declarations (`reads`). */
export function formatsHelp(): string {
  const width = Math.max(...SCORER_NAMES.map((name) => name.length));
  const lines = [...SCORERS].map(([name, cli]) => `  ${name.padEnd(width)}  ${cli.reads.map((f) => SCORE_FILE_FORMATS[f]).join('; ')}`);
  return `\nFormats each scorer reads, gold and runs (where several, each file's is told from its content, not its name):\n${lines.join('\n')}\n`;
}

function buildProgram(io: ScoreIo): Command {
  return new Command('score')
    .description(`Score runs against a gold standard (${SCORER_NAMES.join(', ')}).`)
    .argument('<task>', SCORER_NAMES.join(' | '))
    .argument('<runs...>', `run files (${[...SCORERS].map(([name, cli]) => `${name}: ${cli.runs}`).join('; ')})`)
    .option('--gold <path>', 'gold standard file or directory')
    .option('--given <dir>', `${forTasks('given')}directory of <doc>.a1 files with the given proteins`)
    .option('--entities <path>', `${forTasks('entities')}entities file (pmid<TAB>T1<TAB>CHEMICAL<TAB>start<TAB>end<TAB>text)`)
    .option(
      '--pmids <path>',
      `${forTasks('pmids')}the documents whose predictions count, one pmid a line (default: every pmid of the entities)`,
    )
    .addOption(
      new Option('--columns <layout>', `${forTasks('columns')}optional run columns`).choices(COLUMN_LAYOUTS).default('rank,confidence'),
    )
    .option('--all', `${forTasks('all')}also evaluate gold documents without results`)
    .option('--cutoff <k>', `${forTasks('cutoff')}keep the first k results per document`)
    .option('--ho <file>', `${forTasks('ho')}homonym-ortholog map`)
    .option('--of <file>', `${forTasks('of')}organism map (accession, taxon) for organism filtering`)
    .option('--beta <b>', `${forTasks('beta')}also report macro-averaged F-beta`)
    .option(
      '--single-class',
      `${forTasks('singleClass')}ignore types when matching (and, in BIO, where a mention ends: B-Tissue I-Organ is one mention, as evalbio.pl -1 counts it)`,
    )
    .option(
      '--lenient',
      `${forTasks('lenient')}read broken BIO sequences the nearest way, with a warning (I-X after O as B-X, E-X after O as S-X, an unclosed IOBES mention as ending there)`,
    )
    .option(
      '--type <type>',
      `${forTasks('type')}score only the annotations of this type (eval_mention/eval_id's concept type, evaluate.py's --annotation_type); default every type`,
    )
    .addOption(new Option('--format <format>', 'output format').choices(REPORT_FORMATS).default('json'))
    .addHelpText('after', formatsHelp())
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
}

/** The scorer named on the command line, its flags checked. */
function checkUsage(task: string, o: ScoreFlags, program: Command): FamilyScoreCli {
  const cli = SCORERS.get(task);
  if (!cli) throw new UsageError(`unknown task "${task}"; use one of ${SCORER_NAMES.join(', ')}`);
  if (!o.gold) throw new UsageError('--gold is required');
  cli.check?.(o);
  for (const name of FLAGS) {
    if (program.getOptionValueSource(name) === 'cli' && !cli.flags.includes(name)) {
      throw new UsageError(`${FLAG[name] ?? `--${name}`} does not apply to ${task}`);
    }
  }
  return cli;
}

export async function runScoreCommand(argv: string[], io: ScoreIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  const [task, runs] = program.processedArgs as [string, string[]];
  const o = program.opts<ScoreFlags>();
  const files = new ScoreFiles(
    io,
    (warnings) => warnings.forEach((w) => io.stderr(`warning: ${w}\n`)),
    (run, messages) => messages.forEach((m) => io.stderr(`note: ${run}: ${m}\n`)),
  );
  try {
    const cli = checkUsage(task, o, program);
    const scored = await cli.score(runs, o, files);
    const options = Object.fromEntries(
      ['gold', ...cli.flags]
        .filter((k) => o[k as keyof ScoreFlags] !== undefined)
        .map((k) => [k, k === 'cutoff' || k === 'beta' ? Number(o[k]) : o[k as keyof ScoreFlags]]),
    );
    io.stdout(formatReport({ task, options, runs: scored }, o.format));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\n(see: metaserver score --help)\n`);
      return 2;
    }
    if (error instanceof ScoringInputError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
