// `metaserver export --challenge SLUG --task TASK --server ID --format F --out PATH`:
// one server's stored answers for one task, through the HTTP API of a running meta-server
// (`GET /api/challenges/:slug/export/:task/:format?server=ID`, organiser or the server's
// team token). Formats are the task family's: tsv (the BC II.5 result file), bioc-xml,
// bioc-json, brat, pubannotation, bio, a2 as each family offers them. Formats of one file
// per article (brat, pubannotation, a2) write into the directory PATH, the others write
// the file PATH; a PATH ending in .tar.gz or .tgz gets the files as one archive instead.
// The corpus formats (bioc-jsonl — one BioC JSON document per line —, bioc-json, bioc-xml,
// pubtator) are streamed into PATH as they are read (export-stream.ts), with progress on
// stderr; a PATH ending in .gz is written gzip-compressed.
// The organiser's own exports: `--gold` (with --task) writes the task's gold standard, the
// corpus as it was loaded (GET /api/challenges/:slug/gold/:task/export/:format), and
// `--articles` the articles as loaded, text and passages in load order
// (GET /api/challenges/:slug/articles/export/:format); formats bioc-xml, bioc-json,
// pubtator, pubannotation (one file per document). What a format could not hold is named on stderr.
// `--runs` (no --task, no --format) downloads every run of the challenge, its gold and scores
// as one .tar.gz (export-runs.ts; --out defaults to <slug>.runs.tar.gz).
// Choice: through the API, not the database, so it works against a remote deployment
// with the same access rules as the web pages, and needs no database credentials.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { EXPORT_FORMATS } from '../articles/export-formats.ts';
import { TASK_NAMES } from '../families/registry.ts';
import { tarGz } from '../formats/index.ts';
import { CORPUS_WRITE_FORMATS } from '../formats/corpus-writer.ts';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';
import { STREAMED_FORMATS, streamExport } from './export-stream.ts';
import { downloadRuns } from './export-runs.ts';
import type { ImportIo } from './import.ts';

const PER_ARTICLE = new Set(['brat', 'pubannotation', 'a2']);
const ARCHIVE = /\.(tar\.gz|tgz)$/i;

interface ExportAnswer {
  files: Array<{ name: string; content: string }>;
  mentionsLeftOut?: number;
  /** --gold, --articles: what the format could not hold. */
  leftOut?: Array<{ document: string; what: string }>;
}

const oneOf =
  (values: readonly string[]) =>
  (value: string): string => {
    if (!values.includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    return value;
  };

/** The corpus formats, streamed into the file (.gz: compressed), with progress on stderr. */
async function streamed(
  o: { challenge: string; task: string; server: string; format: string; out: string; url?: string; token?: string },
  io: Pick<ImportIo, 'stderr' | 'env'> & { isTty?: boolean },
): Promise<number> {
  const path = `/api/challenges/${encodeURIComponent(o.challenge)}/export/${o.task}/${o.format}/stream?server=${o.server}`;
  try {
    await streamExport(apiTarget(o, io.env), path, o.format, o.out, { stderr: io.stderr, isTty: io.isTty === true });
  } catch (err) {
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver export: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  io.stderr(`wrote ${o.out}\n`);
  return 0;
}

interface ExportOptions {
  challenge: string;
  task?: string;
  server?: string;
  gold?: boolean;
  articles?: boolean;
  runs?: boolean;
  format?: string;
  out?: string;
  sourcedb?: string;
  url?: string;
  token?: string;
}

function exportProgram(io: Pick<ImportIo, 'stdout' | 'stderr'>): Command {
  const formats = [...new Set([...EXPORT_FORMATS, 'bioc-jsonl', ...CORPUS_WRITE_FORMATS])];
  return new Command('export')
    .description(
      "export a server's answers for a task, or (organiser) the task's gold standard or the articles as loaded; brat, pubannotation and a2 write one file per article into the directory or .tar.gz --out",
    )
    .requiredOption('--challenge <slug>', 'the challenge')
    .option('--task <task>', `${TASK_NAMES.join(', ')} (not with --articles)`, oneOf(TASK_NAMES))
    .option('--server <id>', 'the annotation server id: its answers')
    .option('--gold', "the task's gold standard, as it was loaded (organiser)")
    .option('--articles', 'the articles as loaded: text and passages, in load order (organiser)')
    .option(
      '--runs',
      'every run of the challenge, its gold and scores as one .tar.gz (organiser; teams once the leaderboards are published); no --task or --format; --out defaults to <slug>.runs.tar.gz',
    )
    .option('--format <format>', `${formats.join(' | ')} (needed but with --runs)`, oneOf(formats))
    .option(
      '--out <path>',
      'the file to write (a directory for brat, pubannotation and a2; any format as one archive when it ends in .tar.gz or .tgz); needed but with --runs',
    )
    .option(
      '--sourcedb <name>',
      "pubannotation: the documents' sourcedb; --gold/--articles: also BioC's source when the corpus named none (default: the challenge slug)",
    )
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser or team token (default $METASERVER_ADMIN_TOKEN)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
}

/** Why the options do not go together, or null. */
function misuse(o: ExportOptions): string | null {
  const what = [o.server !== undefined, o.gold === true, o.articles === true, o.runs === true].filter(Boolean).length;
  if (what !== 1)
    return 'give one of --server ID (its answers), --gold (the gold standard), --articles (the articles as loaded) or --runs (every run)';
  if (o.runs === true)
    return o.task !== undefined || o.format !== undefined
      ? '--runs exports every task as one .tar.gz: leave --task and --format out'
      : null;
  if (o.format === undefined) return "required option '--format <format>' not specified";
  if (o.out === undefined) return "required option '--out <path>' not specified";
  if (o.articles !== true && o.task === undefined) return '--task is needed with --server and --gold';
  if (o.articles === true && o.task !== undefined) return "--articles exports every task's articles: leave --task out";
  if (o.server !== undefined && !/^[1-9][0-9]*$/.test(o.server)) return '--server must be a server id (a positive integer)';
  if (o.server === undefined && !(CORPUS_WRITE_FORMATS as readonly string[]).includes(o.format))
    return `--gold and --articles write ${CORPUS_WRITE_FORMATS.join(', ')}`;
  if (o.server !== undefined && o.sourcedb !== undefined && o.format !== 'pubannotation')
    return '--sourcedb applies to --format pubannotation only';
  return null;
}

/** The files where --out says: one archive, a directory of files, or the one file. */
async function writeFiles(files: Array<{ name: string; content: string }>, out: string, perArticle: boolean): Promise<string> {
  if (ARCHIVE.test(out)) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, await tarGz(files));
  } else if (perArticle) {
    mkdirSync(out, { recursive: true });
    for (const file of files) writeFileSync(join(out, file.name), file.content, 'utf8');
  } else {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, files[0]?.content ?? '', 'utf8');
  }
  return perArticle || ARCHIVE.test(out) ? `${files.length} file${files.length === 1 ? '' : 's'} into ${out}` : out;
}

/** The API path of the export asked for. */
function exportPath(o: ExportOptions): string {
  const challenge = `/api/challenges/${encodeURIComponent(o.challenge)}`;
  const sourcedb = o.sourcedb === undefined ? '' : `sourcedb=${encodeURIComponent(o.sourcedb)}`;
  if (o.gold) return `${challenge}/gold/${o.task}/export/${o.format}${sourcedb ? `?${sourcedb}` : ''}`;
  if (o.articles) return `${challenge}/articles/export/${o.format}${sourcedb ? `?${sourcedb}` : ''}`;
  return `${challenge}/export/${o.task}/${o.format}?server=${o.server}${sourcedb ? `&${sourcedb}` : ''}`;
}

export async function runExportCommand(
  argv: string[],
  io: Pick<ImportIo, 'stdout' | 'stderr' | 'env'> & { isTty?: boolean } = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    isTty: process.stderr.isTTY === true,
    env: process.env,
  },
): Promise<number> {
  const program = exportProgram(io);
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const o = program.opts<ExportOptions>();
  const wrong = misuse(o);
  if (wrong) {
    io.stderr(`metaserver export: ${wrong}\n`);
    return 2;
  }
  if (o.runs === true) return await downloadRuns(apiTarget(o, io.env), o.challenge, o.out ?? `${o.challenge}.runs.tar.gz`, io.stderr);
  const format = o.format!;
  const out = o.out!;
  if (o.server !== undefined && STREAMED_FORMATS.has(format) && !ARCHIVE.test(out))
    return await streamed({ ...o, task: o.task!, server: o.server, format, out }, io);
  if (format === 'bioc-jsonl') {
    io.stderr('metaserver export: bioc-jsonl is written as one file (or a .gz), not as a .tar.gz archive\n');
    return 2;
  }
  let answer;
  try {
    answer = await callApi<ExportAnswer>(apiTarget(o, io.env), 'GET', exportPath(o));
  } catch (err) {
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver export: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  // Names come from the server: keep only the last path part, never a path of its own.
  const files = answer.files.map((f) => ({ name: basename(f.name), content: f.content }));
  const wrote = await writeFiles(files, out, PER_ARTICLE.has(format));
  if (answer.mentionsLeftOut) {
    io.stderr(
      `left out ${answer.mentionsLeftOut} mention${answer.mentionsLeftOut === 1 ? '' : 's'} that BIO cannot hold: of overlapping mentions only the longest (then the earliest) is kept, and a mention of white space alone has no token; export brat, pubannotation or bioc-json to keep them all\n`,
    );
  }
  for (const left of (answer.leftOut ?? []).slice(0, 20)) io.stderr(`left out of document ${left.document}: ${left.what}\n`);
  if ((answer.leftOut?.length ?? 0) > 20)
    io.stderr(`… and ${answer.leftOut!.length - 20} more left out (the API's answer lists them all)\n`);
  io.stderr(`wrote ${wrote}\n`);
  return 0;
}
