// `metaserver export --challenge SLUG --task TASK --server ID --format F --out PATH`:
// one server's stored answers for one task, through the HTTP API of a running meta-server
// (`GET /api/challenges/:slug/export/:task/:format?server=ID`, organiser or the server's
// team token). Formats: tsv (ACT/INT/IPT, the BC II.5 result file), bioc-xml, bioc-json
// (MENTION/COREF), brat, pubannotation, bio (MENTION), a2 (COREF). Formats of one file
// per article (brat, a2) write into the directory PATH; the others write the file PATH.
// Choice: through the API, not the database, so it works against a remote deployment
// with the same access rules as the web pages, and needs no database credentials.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { EXPORT_FORMATS } from '../articles/export-routes.ts';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';
import type { ImportIo } from './import.ts';

const PER_ARTICLE = new Set(['brat', 'a2']);

const oneOf = (values: readonly string[]) => (value: string): string => {
  if (!values.includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
  return value;
};

export async function runExportCommand(argv: string[], io: Pick<ImportIo, 'stdout' | 'stderr' | 'env'> = { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s), env: process.env }): Promise<number> {
  const program = new Command('export')
    .description("export a server's answers for a task (brat and a2 write one file per article into --out)")
    .requiredOption('--challenge <slug>', 'the challenge')
    .requiredOption('--task <task>', 'ACT, INT, IPT, MENTION or COREF', oneOf(['ACT', 'INT', 'IPT', 'MENTION', 'COREF']))
    .requiredOption('--server <id>', 'the annotation server id')
    .requiredOption('--format <format>', EXPORT_FORMATS.join(' | '), oneOf(EXPORT_FORMATS))
    .requiredOption('--out <path>', 'the file to write (a directory for brat and a2)')
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
  const o = program.opts<{ challenge: string; task: string; server: string; format: string; out: string; url?: string; token?: string }>();
  if (!/^[1-9][0-9]*$/.test(o.server)) {
    io.stderr('metaserver export: --server must be a server id (a positive integer)\n');
    return 2;
  }
  const path = `/api/challenges/${encodeURIComponent(o.challenge)}/export/${o.task}/${o.format}?server=${o.server}`;
  let answer;
  try {
    answer = await callApi<{ files: Array<{ name: string; content: string }> }>(apiTarget(o, io.env), 'GET', path);
  } catch (err) {
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver export: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  if (PER_ARTICLE.has(o.format)) {
    mkdirSync(o.out, { recursive: true });
    // Names come from the server: keep only the last path part, never a path of its own.
    for (const file of answer.files) writeFileSync(join(o.out, basename(file.name)), file.content, 'utf8');
  } else {
    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(o.out, answer.files[0]?.content ?? '', 'utf8');
  }
  io.stderr(`wrote ${PER_ARTICLE.has(o.format) ? `${answer.files.length} files into ${o.out}` : o.out}\n`);
  return 0;
}
