// `metaserver score TASK --gold … RUN…`: reads gold and run files through the injected
// io, scores them with the pure scoring library and prints one report (JSON, TSV or a
// text table). Exit codes: 0 scored, 1 a bad input file, 2 a bad command line.

import { basename, join } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import {
  COLUMN_LAYOUTS, REPORT_FORMATS, ScoringInputError, checkBioAlignment, formatReport, orderModeOf,
  parseA1, parseA2, parseActGold, parseActRun, parseBio, parseBratMentions, parseHomonymOrthologMap,
  parseIntGold, parseIntRun, parseIptGold, parseIptRun, parseOrganismMap, scoreActRun, scoreCoref,
  scoreMentions, scoreRankedRun, type BioDocument, type ColumnLayout, type CorefDocumentInput,
  type Mention, type ReportFormat, type ScoreReport,
} from '../scoring/index.ts';

export interface ScoreIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => Promise<string>;
  /** The entry names of a directory; rejects (ENOTDIR) for a file. */
  readDir: (path: string) => Promise<string[]>;
}

interface ScoreOptions {
  gold?: string; given?: string; columns: ColumnLayout; all?: boolean; cutoff?: string; ho?: string;
  of?: string; beta?: string; singleClass?: boolean; lenient?: boolean; format: ReportFormat;
}

const TASKS = ['ACT', 'INT', 'IPT', 'MENTION', 'COREF'] as const;
type Task = (typeof TASKS)[number];
/** Options each task accepts beyond --gold and --format. */
const ALLOWED: Record<Task, (keyof ScoreOptions)[]> = {
  ACT: ['columns', 'all'],
  INT: ['columns', 'all', 'cutoff', 'ho', 'of', 'beta'],
  IPT: ['columns', 'all', 'cutoff', 'ho', 'of', 'beta'],
  MENTION: ['singleClass', 'lenient'],
  COREF: ['given'],
};
const FLAG: Partial<Record<keyof ScoreOptions, string>> = { singleClass: '--single-class', of: '--of', ho: '--ho' };

/** A mistake on the command line (exit 2), as opposed to one in a file (exit 1). */
class UsageError extends Error {}

function runName(path: string): string {
  return basename(path.replace(/[\\/]+$/, '')).replace(/\.[^.]*$/, '') || path;
}

async function read(io: ScoreIo, path: string): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    throw new ScoringInputError(`cannot read the file: ${(error as Error).message}`, { file: path, hint: 'check the path' });
  }
}

/** Directory entries, or undefined when `path` is a file. */
async function listDir(io: ScoreIo, path: string): Promise<string[] | undefined> {
  try {
    return (await io.readDir(path)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw new ScoringInputError(`cannot open: ${(error as Error).message}`, { file: path, hint: 'check the path' });
  }
}

function positiveNumber(raw: string | undefined, flag: string, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be a positive ${integer ? 'integer' : 'number'}, not "${raw}"`);
  }
  return value;
}

async function scoreBc2(task: 'ACT' | 'INT' | 'IPT', runs: string[], o: ScoreOptions, io: ScoreIo, warn: (w: string[]) => void): Promise<ScoreReport['runs']> {
  const goldFile = o.gold as string;
  const goldText = await read(io, goldFile);
  const mode = orderModeOf(o.columns);
  if (task === 'ACT') {
    const gold = parseActGold(goldText, { file: goldFile });
    warn(gold.warnings);
    const scored: ScoreReport['runs'] = [];
    for (const file of runs) {
      const run = parseActRun(await read(io, file), { file, columns: o.columns });
      warn(run.warnings);
      scored.push({ run: runName(file), metrics: { ...scoreActRun(gold.value, run.value, mode) } });
    }
    return scored;
  }
  const gold = task === 'INT' ? parseIntGold(goldText, { file: goldFile }) : parseIptGold(goldText, { file: goldFile });
  const orthologMap = o.ho ? parseHomonymOrthologMap(await read(io, o.ho), { file: o.ho }) : undefined;
  const organismMap = o.of ? parseOrganismMap(await read(io, o.of), { file: o.of }) : undefined;
  const options = {
    task, mode, all: o.all === true, cutoff: positiveNumber(o.cutoff, '--cutoff', true), orthologMap, organismMap,
    organismMapFile: o.of, beta: positiveNumber(o.beta, '--beta', false),
  };
  const scored: ScoreReport['runs'] = [];
  for (const file of runs) {
    const text = await read(io, file);
    // Scoring drops run documents outside the gold, so the parser need not build them
    // (it still checks their lines): most of a run's lines, at BC II.5 scale.
    const parseOptions = { file, columns: o.columns, documents: gold };
    const run = task === 'INT' ? parseIntRun(text, parseOptions) : parseIptRun(text, parseOptions);
    const { documents: _perDocument, ...metrics } = scoreRankedRun(gold, run, options);
    scored.push({ run: runName(file), metrics });
  }
  return scored;
}

type MentionSource = { kind: 'brat'; dir: boolean; mentions: Mention[]; docs: Set<string> } | { kind: 'bio'; doc: BioDocument; file: string };
const BIO_EXTENSIONS = /\.(bio|conll|iob|tsv)$/i;
const BRAT_LINE = /^T\S*\t\S+ \d+ \d+/m;

async function loadMentions(io: ScoreIo, path: string, lenient: boolean, warn: (w: string[]) => void): Promise<MentionSource> {
  const entries = await listDir(io, path);
  if (entries) {
    const mentions: Mention[] = [];
    const docs = new Set(entries.filter((n) => /\.(ann|txt)$/.test(n)).map((n) => n.replace(/\.(ann|txt)$/, '')));
    for (const name of entries.filter((n) => n.endsWith('.ann'))) {
      const file = join(path, name);
      mentions.push(...parseBratMentions(await read(io, file), { doc: name.slice(0, -4), file }));
    }
    return { kind: 'brat', dir: true, mentions, docs };
  }
  const text = await read(io, path);
  if (!BIO_EXTENSIONS.test(path) && (path.endsWith('.ann') || BRAT_LINE.test(text))) {
    return { kind: 'brat', dir: false, mentions: parseBratMentions(text, { file: path }), docs: new Set(['']) };
  }
  const parsed = parseBio(text, { file: path, lenient });
  warn(parsed.warnings);
  return { kind: 'bio', doc: parsed.value, file: path };
}

async function scoreMentionRuns(runs: string[], o: ScoreOptions, io: ScoreIo, warn: (w: string[]) => void): Promise<ScoreReport['runs']> {
  const goldPath = o.gold as string;
  const gold = await loadMentions(io, goldPath, o.lenient === true, warn);
  const scored: ScoreReport['runs'] = [];
  for (const path of runs) {
    const run = await loadMentions(io, path, o.lenient === true, warn);
    let goldMentions: Mention[];
    let runMentions: Mention[];
    if (gold.kind === 'bio' && run.kind === 'bio') {
      checkBioAlignment(gold.doc, run.doc, { gold: gold.file, response: run.file });
      [goldMentions, runMentions] = [gold.doc.mentions, run.doc.mentions];
    } else if (gold.kind === 'brat' && run.kind === 'brat' && gold.dir === run.dir) {
      const stray = [...run.docs].filter((d) => !gold.docs.has(d));
      if (stray.length > 0) warn([`${path}: ignored documents not in the gold: ${stray.join(', ')}`]);
      [goldMentions, runMentions] = [gold.mentions, run.mentions.filter((m) => gold.docs.has(m.doc))];
    } else {
      throw new ScoringInputError(`is not in the same form as the gold ${goldPath} (brat directory, single .ann file or BIO file)`, {
        file: path,
        hint: 'give gold and runs in the same form',
      });
    }
    scored.push({ run: runName(path), metrics: { ...scoreMentions(goldMentions, runMentions, { singleClass: o.singleClass === true }) } });
  }
  return scored;
}

async function scoreCorefRuns(runs: string[], o: ScoreOptions, io: ScoreIo, note: (run: string, messages: string[]) => void): Promise<ScoreReport['runs']> {
  const goldDir = o.gold as string;
  const givenDir = o.given as string;
  const goldNames = (await listDir(io, goldDir)) ?? [];
  const givenNames = new Set((await listDir(io, givenDir)) ?? []);
  const docs = goldNames.filter((n) => n.endsWith('.a2')).map((n) => n.slice(0, -3));
  if (docs.length === 0) throw new ScoringInputError('holds no .a2 files', { file: goldDir, hint: '--gold must be a directory of <doc>.a2 files' });
  const prepared = [];
  for (const doc of docs) {
    const a1Dir = givenNames.has(`${doc}.a1`) ? givenDir : goldNames.includes(`${doc}.a1`) ? goldDir : undefined;
    if (!a1Dir) throw new ScoringInputError(`no ${doc}.a1 with the given proteins`, { file: givenDir, hint: '--given must hold <doc>.a1 for every gold document' });
    const a1File = join(a1Dir, `${doc}.a1`);
    const goldFile = join(goldDir, `${doc}.a2`);
    prepared.push({ doc, goldFile, proteins: parseA1(await read(io, a1File), { file: a1File }), gold: parseA2(await read(io, goldFile), { file: goldFile }) });
  }
  const scored: ScoreReport['runs'] = [];
  for (const dir of runs) {
    const names = new Set((await listDir(io, dir)) ?? []);
    const inputs: CorefDocumentInput[] = [];
    for (const p of prepared) {
      const responseFile = join(dir, `${p.doc}.a2`);
      // A document the run left out is an empty response: its gold links and expressions
      // are all missed (the official scorer does not score such a document).
      const response = names.has(`${p.doc}.a2`) ? parseA2(await read(io, responseFile), { file: responseFile }) : { expressions: new Map(), links: [] };
      inputs.push({ ...p, response, responseFile });
    }
    const { droppedLinks, ...metrics } = scoreCoref(inputs);
    const run = runName(dir);
    // As the official scorer prints "Invalid response link … removed", on stderr here so
    // that stdout stays one report in the chosen format.
    note(run, droppedLinks.map((d) => d.message));
    scored.push({ run, metrics, droppedLinks });
  }
  return scored;
}

function buildProgram(io: ScoreIo): Command {
  return new Command('score')
    .description('Score runs against a gold standard (BC II.5 ACT/INT/IPT, MENTION, COREF).')
    .argument('<task>', TASKS.join(' | '))
    .argument('<runs...>', 'run files (MENTION: brat directories, .ann or BIO files; COREF: directories of .a2 files)')
    .option('--gold <path>', 'gold standard file or directory')
    .option('--given <dir>', 'COREF: directory of <doc>.a1 files with the given proteins')
    .addOption(new Option('--columns <layout>', 'optional run columns').choices(COLUMN_LAYOUTS).default('rank,confidence'))
    .option('--all', 'INT/IPT: also evaluate gold documents without results')
    .option('--cutoff <k>', 'INT/IPT: keep the first k results per document')
    .option('--ho <file>', 'INT/IPT: homonym-ortholog map')
    .option('--of <file>', 'INT/IPT: organism map (accession, taxon) for organism filtering')
    .option('--beta <b>', 'INT/IPT: also report macro-averaged F-beta')
    .option('--single-class', 'MENTION: ignore types when matching')
    .option('--lenient', 'MENTION: read broken BIO sequences the nearest way, with a warning (I-X after O as B-X, E-X after O as S-X, an unclosed IOBES mention as ending there)')
    .addOption(new Option('--format <format>', 'output format').choices(REPORT_FORMATS).default('json'))
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
}

function checkUsage(task: string, o: ScoreOptions, program: Command): asserts task is Task {
  if (!(TASKS as readonly string[]).includes(task)) throw new UsageError(`unknown task "${task}"; use one of ${TASKS.join(', ')}`);
  if (!o.gold) throw new UsageError('--gold is required');
  if (task === 'COREF' && !o.given) throw new UsageError('COREF needs --given DIR (the .a1 files with the given proteins)');
  for (const name of ['given', 'columns', 'all', 'cutoff', 'ho', 'of', 'beta', 'singleClass', 'lenient'] as const) {
    if (program.getOptionValueSource(name) === 'cli' && !ALLOWED[task as Task].includes(name)) {
      throw new UsageError(`${FLAG[name] ?? `--${name}`} does not apply to ${task}`);
    }
  }
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
  const o = program.opts<ScoreOptions>();
  const warn = (warnings: string[]) => warnings.forEach((w) => io.stderr(`warning: ${w}\n`));
  try {
    checkUsage(task, o, program);
    let scored: ScoreReport['runs'];
    if (task === 'MENTION') scored = await scoreMentionRuns(runs, o, io, warn);
    else if (task === 'COREF') scored = await scoreCorefRuns(runs, o, io, (run, messages) => messages.forEach((m) => io.stderr(`note: ${run}: ${m}\n`)));
    else scored = await scoreBc2(task, runs, o, io, warn);
    const options = Object.fromEntries(
      ['gold', ...ALLOWED[task]]
        .filter((k) => o[k as keyof ScoreOptions] !== undefined)
        .map((k) => [k, k === 'cutoff' || k === 'beta' ? Number(o[k]) : o[k as keyof ScoreOptions]]),
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
