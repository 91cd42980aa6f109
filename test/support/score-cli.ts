// `metaserver score` run in the test process, as the command line runs it, with its output
// captured; and a BC II.5 file written readably (" | " between columns becomes a TAB).
import { readdir, readFile } from 'node:fs/promises';
import { runScoreCommand } from '../../src/cli/score.ts';

export async function score(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runScoreCommand(argv, {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readFile: (p) => readFile(p, 'utf8'),
    readDir: (p) => readdir(p),
  });
  return { code, out, err };
}

export const tsv = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';
