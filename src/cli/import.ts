// `metaserver import --challenge SLUG [--url U] [--token T] [--batch N] [--skip-bad] PATH…`:
// loads articles into a challenge through the HTTP API of a running meta-server, in
// batches. PATH is a directory (its files) or a file: plain text, JATS/NXML, BioC XML or
// JSON (or JSON lines), PubTator text, or a PMC Open Access `.tar.gz` package
// (import-files.ts says how each is told apart; corpus documents keep their format and
// sections). The organiser id of a one-article file is its name without the
// extension; of a corpus document, the document's id; of a packaged NXML, its PMC folder.
// Every file and document is read and checked before anything is sent: by default one bad
// document refuses the import and nothing is sent (each failure is listed: file, document,
// reason); with --skip-bad the good ones are loaded and the bad ones listed. Loading is
// idempotent on the server side (the same id with the same text changes nothing), so an
// interrupted import can simply be run again.
// Progress goes to stderr: a bar on a terminal, plain lines otherwise (logs, CI).
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';
import { importFiles, readImportFiles } from './import-files.ts';

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
    .description(
      'load articles into a challenge: directories or files of .txt, .nxml, BioC .xml/.json/.jsonl, PubTator (.pubtator, or .txt starting "PMID|t|") and PMC .tar.gz packages',
    )
    .requiredOption('--challenge <slug>', 'the challenge to load into')
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser token (default $METASERVER_ADMIN_TOKEN)')
    .option('--batch <n>', 'articles per request', positiveInt, 100)
    .option('--skip-bad', 'load the good documents and list the bad ones (default: one bad document refuses the import, nothing is sent)')
    .argument('<paths...>', 'directories or files holding the articles')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const opts = program.opts<{ challenge: string; url?: string; token?: string; batch: number; skipBad?: boolean }>();
  const paths = program.args;
  let files: string[];
  let read;
  try {
    files = importFiles(paths);
    read = await readImportFiles(files);
  } catch (err) {
    io.stderr(`metaserver import: cannot read ${paths.join(', ')}: ${(err as Error).message}\n`);
    return 2;
  }
  const { items, failures } = read;
  for (const f of failures) io.stderr(`metaserver import: ${f.file}, document ${f.document}: ${f.reason}\n`);
  if (failures.length > 0 && !opts.skipBad) {
    io.stderr(
      `metaserver import: ${failures.length} file(s) or document(s) cannot be loaded, so nothing was sent; fix them, or run again with --skip-bad to load the ${items.length} others\n`,
    );
    return 1;
  }
  if (items.length === 0) {
    io.stderr(`metaserver import: ${paths.join(', ')} holds no article (.txt, .nxml, BioC .xml/.json/.jsonl, PubTator, PMC .tar.gz)\n`);
    return 2;
  }
  const target = apiTarget(opts, io.env);
  let created = 0;
  const ids: Record<string, string> = {};
  try {
    for (let i = 0; i < items.length; i += opts.batch) {
      // Each item has exactly one of text, xml, bioc, pubtator: the route's fields of a listed article.
      const batch = items.slice(i, i + opts.batch).map(({ id, text, xml, bioc, pubtator }) => ({ id, text, xml, bioc, pubtator }));
      const answer = await callApi<{ created: number; ids: Record<string, string> }>(
        target,
        'POST',
        `/api/challenges/${encodeURIComponent(opts.challenge)}/articles`,
        { articles: batch },
      );
      created += answer.created;
      Object.assign(ids, answer.ids);
      progress(io, Math.min(i + opts.batch, items.length), items.length);
    }
  } catch (err) {
    if (io.isTty) io.stderr('\n');
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver import: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  io.stdout(
    `${JSON.stringify({ challenge: opts.challenge, files: files.length, articles: items.length, created, ids, refused: failures })}\n`,
  );
  return 0;
}
