// The real file system and standard streams for `metaserver score` (tests pass their own).
import { readdir, readFile } from 'node:fs/promises';
import type { ScoreIo } from './score.ts';

export function processIo(): ScoreIo {
  return {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    readFile: (p) => readFile(p, 'utf8'),
    readDir: (p) => readdir(p),
  };
}
