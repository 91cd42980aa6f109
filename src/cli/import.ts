// `metaserver import --challenge SLUG [--url U] [--token T] [--batch N] DIR`: loads every
// `.txt` (plain text) and `.nxml` (JATS/PMC XML) file of DIR into a challenge through the
// HTTP API of a running meta-server, in batches. The organiser id of an article is its
// file name without the extension. Loading is idempotent on the server side (the same id
// with the same text changes nothing), so an interrupted import can simply be run again.
// Progress goes to stderr: a bar on a terminal, plain lines otherwise (logs, CI).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';

export interface ImportIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}

const processIo = (): ImportIo => ({
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTty: process.stderr.isTTY === true,
  env: process.env,
});

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 20_000) throw new InvalidArgumentError('expected an integer between 1 and 20000');
  return n;
};

/** The article files of a directory, sorted by name (load order is queue order). */
export function articleFiles(dir: string): Array<{ id: string; path: string; kind: 'text' | 'xml' }> {
  return readdirSync(dir)
    .filter((name) => ['.txt', '.nxml'].includes(extname(name).toLowerCase()) && statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => ({ id: name.slice(0, -extname(name).length), path: join(dir, name), kind: extname(name).toLowerCase() === '.txt' ? 'text' : 'xml' }));
}

function progress(io: ImportIo, done: number, total: number): void {
  if (!io.isTty) {
    io.stderr(`imported ${done}/${total} articles\n`);
    return;
  }
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

export async function runImportCommand(argv: string[], io: ImportIo = processIo()): Promise<number> {
  const program = new Command('import')
    .description('load a directory of .txt / .nxml articles into a challenge (organiser id = file name without extension)')
    .requiredOption('--challenge <slug>', 'the challenge to load into')
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser token (default $METASERVER_ADMIN_TOKEN)')
    .option('--batch <n>', 'articles per request', positiveInt, 100)
    .argument('<dir>', 'directory holding the article files')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const opts = program.opts<{ challenge: string; url?: string; token?: string; batch: number }>();
  const dir = program.args[0]!;
  let files;
  try {
    files = articleFiles(dir);
  } catch (err) {
    io.stderr(`metaserver import: cannot read ${dir}: ${(err as Error).message}\n`);
    return 2;
  }
  if (files.length === 0) {
    io.stderr(`metaserver import: ${dir} holds no .txt or .nxml files\n`);
    return 2;
  }
  const target = apiTarget(opts, io.env);
  let created = 0;
  const ids: Record<string, string> = {};
  try {
    for (let i = 0; i < files.length; i += opts.batch) {
      const batch = files.slice(i, i + opts.batch).map((f) => {
        const content = readFileSync(f.path, 'utf8');
        return f.kind === 'text' ? { id: f.id, text: content } : { id: f.id, xml: content };
      });
      const answer = await callApi<{ created: number; ids: Record<string, string> }>(target, 'POST', `/api/challenges/${encodeURIComponent(opts.challenge)}/articles`, { articles: batch });
      created += answer.created;
      Object.assign(ids, answer.ids);
      progress(io, Math.min(i + opts.batch, files.length), files.length);
    }
  } catch (err) {
    if (io.isTty) io.stderr('\n');
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver import: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  io.stdout(`${JSON.stringify({ challenge: opts.challenge, files: files.length, created, ids })}\n`);
  return 0;
}
