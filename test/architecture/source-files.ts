// Reads the source tree for the architecture checks: every .ts file under src/ with its
// text, and the relative imports each one makes (resolved to files), so the checks need no
// tool beyond the file system.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface SourceFile {
  /** Path from the repository root, with forward slashes: `src/servers/routes.ts`. */
  path: string;
  text: string;
}

export function sourceFiles(dir = 'src', root = ROOT): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (abs: string) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const full = join(abs, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) out.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(join(root, dir));
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The text without comments (so a comment that names a table or a query is not taken for one). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * Relative imports (`import … from './x.ts'`, `export … from`, `import('./x.ts')`), resolved
 * to repository paths. `typeOnly`: `import type` / `export type` — erased at run time.
 */
export function importsOf(file: SourceFile): Array<{ target: string; typeOnly: boolean }> {
  const out: Array<{ target: string; typeOnly: boolean }> = [];
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const m of withoutComments(file.text).matchAll(pattern)) {
    const spec = m[3] ?? m[4]!;
    const target = join(dirname(file.path), spec).split('\\').join('/');
    out.push({ target, typeOnly: m[2] !== undefined });
  }
  return out;
}

/** The cycles of the import graph: each strongly connected component of more than one file (Tarjan). */
export function importCycles(files: SourceFile[], opts: { includeTypeOnly: boolean }): string[][] {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map(files.map((f) => [f.path, importsOf(f).filter((i) => (opts.includeTypeOnly || !i.typeOnly) && known.has(i.target)).map((i) => i.target)]));
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const f of files) if (!indexOf.has(f.path)) visit(f.path);
  return components;
}

/** Files that may hold SQL: repositories (`repository.ts`, `*-repository.ts`) and the database layer. */
export const isRepository = (path: string) => /(^|\/|-)repository\.ts$/.test(path);
export const isDatabaseLayer = (path: string) => path.startsWith('src/db/');

/** String literals and templates that read as SQL statements. */
const SQL_STATEMENT = [
  /^\s*select\b[\s\S]*\bfrom\s+[a-z_]+/i,
  /^\s*with\s+[a-z_]+\s+as\s*\(/i,
  /\binsert\s+into\s+[a-z_]+/i,
  /\bupdate\s+[a-z_]+\s+set\b/i,
  /\bdelete\s+from\s+[a-z_$]/i,
  /^\s*select\s+(1|count\(|pg_[a-z_]+\(|[a-z_]+\s+from\b)/i,
];
/** A query sent through a database handle. */
const QUERY_CALL = /\.(query|script)\s*(<[^>]*>)?\s*\(/;

function stringLiterals(text: string): string[] {
  return [...withoutComments(text).matchAll(/`(?:\\[\s\S]|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g)].map((m) => m[0].slice(1, -1));
}

export function sqlIn(file: SourceFile): string[] {
  const found = stringLiterals(file.text).filter((s) => SQL_STATEMENT.some((re) => re.test(s))).map((s) => s.replace(/\s+/g, ' ').slice(0, 60));
  if (QUERY_CALL.test(withoutComments(file.text))) found.push('a .query( / .script( call');
  return found;
}

/** Pairs of top-level folders (or root files) that import each other: `src/a <-> src/b`. */
export function folderCycles(files: SourceFile[], includeTypeOnly: boolean): string[] {
  const folder = (p: string) => p.split('/').slice(0, 2).join('/').replace(/\.ts$/, '');
  const edges = new Set<string>();
  for (const f of files) {
    for (const i of importsOf(f)) if ((includeTypeOnly || !i.typeOnly) && folder(f.path) !== folder(i.target)) edges.add(`${folder(f.path)} -> ${folder(i.target)}`);
  }
  const pairs = new Set<string>();
  for (const e of edges) {
    const [a, b] = e.split(' -> ') as [string, string];
    if (edges.has(`${b} -> ${a}`)) pairs.add(a < b ? `${a} <-> ${b}` : `${b} <-> ${a}`);
  }
  return [...pairs].sort();
}
