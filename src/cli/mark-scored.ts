// `metaserver mark-scored --challenge SLUG [--only FILE | --scored FILE --background FILE]`:
// the organiser says which articles of a challenge the leaderboards score, through the API
// of a running meta-server (articles/scored-routes.ts). A FILE holds organiser ids, one a
// line (blank lines and lines starting with # are skipped), as an organiser keeps the
// PMIDs of a test set. --only: those are scored and every other article is background (a
// test set hidden among background documents); --scored / --background: those change, the
// others stay. Without a file it prints the counts. Each list goes in one request, so an
// unknown id refuses all of it and nothing changes (the ids are listed).
import { readFile } from 'node:fs/promises';
import { Command, CommanderError } from 'commander';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';

export interface MarkScoredIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

const processIo = (): MarkScoredIo => ({
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  env: process.env,
});

/** The organiser ids of a file, one a line; a line holding white space inside is refused, naming it. */
export function readIdLines(text: string, file: string): string[] {
  const ids: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const id = line.trim();
    if (id === '' || id.startsWith('#')) return;
    if (/\s|\//.test(id))
      throw new Error(`${file}, line ${i + 1}: "${id.slice(0, 80)}" is not an organiser id (one id a line, no white space or "/")`);
    ids.push(id);
  });
  return ids;
}

interface Options {
  challenge: string;
  url?: string;
  token?: string;
  only?: string;
  scored?: string;
  background?: string;
}

async function idsOf(file: string | undefined): Promise<string[] | undefined> {
  return file === undefined ? undefined : readIdLines(await readFile(file, 'utf8'), file);
}

/** The request the options ask for: GET the counts, PUT the only scored ones, or PATCH some. */
async function requestOf(o: Options): Promise<{ method: 'GET' | 'PUT' | 'PATCH'; body?: unknown }> {
  if (o.only !== undefined) return { method: 'PUT', body: { scored: await idsOf(o.only) } };
  if (o.scored === undefined && o.background === undefined) return { method: 'GET' };
  const [scored, background] = [await idsOf(o.scored), await idsOf(o.background)];
  return { method: 'PATCH', body: { ...(scored ? { scored } : {}), ...(background ? { background } : {}) } };
}

export async function runMarkScoredCommand(argv: string[], io: MarkScoredIo = processIo()): Promise<number> {
  const program = new Command('mark-scored')
    .description('say which articles of a challenge the leaderboards score (the others are background); without a file, print the counts')
    .requiredOption('--challenge <slug>', 'the challenge')
    .option('--only <file>', 'organiser ids (one a line) of the articles to score; every other article becomes background')
    .option('--scored <file>', 'organiser ids (one a line) to mark as scored; the others stay as they are')
    .option('--background <file>', 'organiser ids (one a line) to mark as background; the others stay as they are')
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser token (default $METASERVER_ADMIN_TOKEN)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const o = program.opts<Options>();
  if (o.only !== undefined && (o.scored !== undefined || o.background !== undefined)) {
    io.stderr('metaserver mark-scored: --only names every scored article; give it alone, or use --scored and --background instead\n');
    return 2;
  }
  let request;
  try {
    request = await requestOf(o);
  } catch (err) {
    io.stderr(`metaserver mark-scored: ${(err as Error).message}; nothing was sent\n`);
    return 2;
  }
  const path = `/api/challenges/${encodeURIComponent(o.challenge)}/scored-articles`;
  try {
    const answer = await callApi<unknown>(apiTarget(o, io.env), request.method, path, request.body);
    io.stdout(`${JSON.stringify(answer)}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ApiCallError)) throw err;
    io.stderr(`metaserver mark-scored: ${err.message}\n`);
    const unknown = (err.details as { unknown?: unknown } | undefined)?.unknown;
    if (Array.isArray(unknown)) io.stderr(`unknown organiser ids:\n${unknown.join('\n')}\n`);
    return 1;
  }
}
