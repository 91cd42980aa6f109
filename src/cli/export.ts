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
// Choice: through the API, not the database, so it works against a remote deployment
// with the same access rules as the web pages, and needs no database credentials.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { EXPORT_FORMATS } from '../articles/export-formats.ts';
import { TASK_NAMES } from '../families/registry.ts';
import { tarGz } from '../formats/index.ts';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';
import { STREAMED_FORMATS, streamExport } from './export-stream.ts';
import type { ImportIo } from './import.ts';

const PER_ARTICLE = new Set(['brat', 'pubannotation', 'a2']);
const ARCHIVE = /\.(tar\.gz|tgz)$/i;

interface ExportAnswer {
  files: Array<{ name: string; content: string }>;
  mentionsLeftOut?: number;
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

export async function runExportCommand(
  argv: string[],
  io: Pick<ImportIo, 'stdout' | 'stderr' | 'env'> & { isTty?: boolean } = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    isTty: process.stderr.isTTY === true,
    env: process.env,
  },
): Promise<number> {
  const program = new Command('export')
    .description(
      "export a server's answers for a task (brat, pubannotation and a2 write one file per article into the directory or .tar.gz --out)",
    )
    .requiredOption('--challenge <slug>', 'the challenge')
    .requiredOption('--task <task>', TASK_NAMES.join(', '), oneOf(TASK_NAMES))
    .requiredOption('--server <id>', 'the annotation server id')
    .requiredOption('--format <format>', [...EXPORT_FORMATS, 'bioc-jsonl'].join(' | '), oneOf([...EXPORT_FORMATS, 'bioc-jsonl']))
    .requiredOption(
      '--out <path>',
      'the file to write (a directory for brat, pubannotation and a2; any format as one archive when it ends in .tar.gz or .tgz)',
    )
    .option('--sourcedb <name>', "pubannotation: the documents' sourcedb (default: the challenge slug)")
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser or team token (default $METASERVER_ADMIN_TOKEN)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const o = program.opts<{
    challenge: string;
    task: string;
    server: string;
    format: string;
    out: string;
    sourcedb?: string;
    url?: string;
    token?: string;
  }>();
  if (!/^[1-9][0-9]*$/.test(o.server)) {
    io.stderr('metaserver export: --server must be a server id (a positive integer)\n');
    return 2;
  }
  if (o.sourcedb !== undefined && o.format !== 'pubannotation') {
    io.stderr('metaserver export: --sourcedb applies to --format pubannotation only\n');
    return 2;
  }
  if (STREAMED_FORMATS.has(o.format) && !ARCHIVE.test(o.out)) return await streamed(o, io);
  if (o.format === 'bioc-jsonl') {
    io.stderr('metaserver export: bioc-jsonl is written as one file (or a .gz), not as a .tar.gz archive\n');
    return 2;
  }
  const sourcedb = o.sourcedb === undefined ? '' : `&sourcedb=${encodeURIComponent(o.sourcedb)}`;
  const path = `/api/challenges/${encodeURIComponent(o.challenge)}/export/${o.task}/${o.format}?server=${o.server}${sourcedb}`;
  let answer;
  try {
    answer = await callApi<ExportAnswer>(apiTarget(o, io.env), 'GET', path);
  } catch (err) {
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver export: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  // Names come from the server: keep only the last path part, never a path of its own.
  const files = answer.files.map((f) => ({ name: basename(f.name), content: f.content }));
  const perArticle = PER_ARTICLE.has(o.format);
  if (ARCHIVE.test(o.out)) {
    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(o.out, await tarGz(files));
  } else if (perArticle) {
    mkdirSync(o.out, { recursive: true });
    for (const file of files) writeFileSync(join(o.out, file.name), file.content, 'utf8');
  } else {
    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(o.out, files[0]?.content ?? '', 'utf8');
  }
  if (answer.mentionsLeftOut) {
    io.stderr(
      `left out ${answer.mentionsLeftOut} mention${answer.mentionsLeftOut === 1 ? '' : 's'} that BIO cannot hold: of overlapping mentions only the longest (then the earliest) is kept, and a mention of white space alone has no token; export brat, pubannotation or bioc-json to keep them all\n`,
    );
  }
  io.stderr(`wrote ${perArticle || ARCHIVE.test(o.out) ? `${files.length} file${files.length === 1 ? '' : 's'} into ${o.out}` : o.out}\n`);
  return 0;
}
