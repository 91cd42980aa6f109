// Reads the Dockerfile as Docker would, for test/deploy/dockerfile.test.ts, which stands in
// for `docker build` and `docker run` (Docker is not available to the tests). Only the
// instructions our Dockerfile uses are understood; anything else fails the test loudly, so
// the file and the test that checks it cannot drift apart.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, posix, relative } from 'node:path';

export type Instruction =
  | { op: 'FROM'; image: string }
  | { op: 'WORKDIR'; dir: string }
  | { op: 'ENV'; name: string; value: string }
  | { op: 'COPY'; sources: string[]; dest: string }
  | { op: 'RUN'; command: string }
  | { op: 'USER'; user: string }
  | { op: 'EXPOSE'; port: string }
  | { op: 'ENTRYPOINT' | 'CMD'; argv: string[] };

/** The instructions in order: comments dropped, continued lines (`\` at the end) joined. */
export function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) pending += `${line.slice(0, -1)} `;
    else {
      logical.push(pending + line);
      pending = '';
    }
  }
  return logical.map((line) => {
    const [, op, rest] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    switch (op?.toUpperCase()) {
      case 'FROM':
        return { op: 'FROM', image: rest };
      case 'WORKDIR':
        return { op: 'WORKDIR', dir: rest };
      case 'ENV': {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/.exec(rest);
        if (!m) throw new Error(`ENV in the NAME=value form only (one per line): ${line}`);
        return { op: 'ENV', name: m[1], value: m[2] };
      }
      case 'COPY': {
        const parts = rest.split(/\s+/);
        if (parts.some((p) => p.startsWith('--')) || parts.length < 2)
          throw new Error(`COPY without flags, sources then destination: ${line}`);
        return { op: 'COPY', sources: parts.slice(0, -1), dest: parts.at(-1)! };
      }
      case 'RUN':
        if (rest.startsWith('[')) throw new Error(`RUN in shell form only: ${line}`);
        return { op: 'RUN', command: rest };
      case 'USER':
        return { op: 'USER', user: rest };
      case 'EXPOSE':
        return { op: 'EXPOSE', port: rest };
      case 'ENTRYPOINT':
      case 'CMD': {
        const argv: unknown = JSON.parse(rest);
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string'))
          throw new Error(`${op} in exec form (a JSON array of strings): ${line}`);
        return { op: op.toUpperCase() as 'CMD', argv: argv };
      }
      default:
        throw new Error(`an instruction this test does not understand (extend test/deploy/dockerfile.ts): ${line}`);
    }
  });
}

/** The .dockerignore entries: plain names of top-level files or folders (all ours are). */
export function readDockerignore(context: string): Set<string> {
  const file = join(context, '.dockerignore');
  if (!existsSync(file)) return new Set();
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const name of names)
    if (/[*?![\]/]/.test(name.replace(/\/$/, ''))) throw new Error(`a .dockerignore pattern this test does not understand: ${name}`);
  return new Set(names.map((n) => n.replace(/\/$/, '')));
}

/**
 * What one COPY puts into the image: sources from the build context (minus .dockerignore),
 * to a destination relative to the WORKDIR, which `root` stands for here.
 */
export function copyInto(
  context: string,
  ignored: Set<string>,
  copy: { sources: string[]; dest: string },
  workdir: string,
  root: string,
): void {
  const dest = posix.isAbsolute(copy.dest) ? posix.relative(workdir, copy.dest) : copy.dest;
  if (dest.startsWith('..')) throw new Error(`COPY outside the WORKDIR (${copy.dest}): extend the test`);
  for (const source of copy.sources) {
    const from = join(context, source);
    if (isAbsolute(source) || relative(context, from).startsWith('..')) throw new Error(`COPY from outside the build context: ${source}`);
    if (ignored.has(relative(context, from).split('/')[0])) continue;
    const intoFolder = copy.dest.endsWith('/') || copy.sources.length > 1;
    const target = intoFolder ? join(root, dest, posix.basename(source)) : join(root, dest);
    cpSync(from, target, {
      recursive: true,
      preserveTimestamps: true, // as Docker's COPY does
      filter: (path) => !ignored.has(relative(context, path).split('/')[0]),
    });
  }
}
