// Reads the source tree for the architecture checks: every .ts file under src/ with its
// text, and the relative imports each one makes (resolved to files). Imports are read with
// the TypeScript parser, not with patterns: a pattern misreads a comment that holds `/*`
// (a glob such as `src/families/*`) and then skips the real imports after it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

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

/** Tokens after which a `/` divides; after any other, it opens a regular expression. */
const ENDS_OPERAND = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
]);

const stripped = new Map<string, string>();

/**
 * The text without comments (so a comment that names a table or a query is not taken for
 * one). The TypeScript scanner finds the comments, so `//` inside a string or a template,
 * or `/*` inside a line comment, is read for what it is.
 */
export function withoutComments(text: string): string {
  const known = stripped.get(text);
  if (known !== undefined) return known;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  // Open template substitutions: the brace depth at which each `${` was opened.
  const templates: number[] = [];
  let depth = 0;
  let previous = ts.SyntaxKind.Unknown;
  let out = '';
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.OpenBraceToken) depth++;
    else if (token === ts.SyntaxKind.CloseBraceToken) {
      if (templates.at(-1) === depth) {
        token = scanner.reScanTemplateToken(false);
        if (token === ts.SyntaxKind.TemplateTail) templates.pop();
      } else depth--;
    } else if (token === ts.SyntaxKind.TemplateHead) templates.push(depth);
    else if ((token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) && !ENDS_OPERAND.has(previous))
      token = scanner.reScanSlashToken();
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) continue;
    out += scanner.getTokenText();
    if (token !== ts.SyntaxKind.WhitespaceTrivia && token !== ts.SyntaxKind.NewLineTrivia) previous = token;
  }
  stripped.set(text, out);
  return out;
}

export interface Import {
  /** The imported file, a repository path: `src/families/registry.ts`. */
  target: string;
  /** Erased at run time: `import type`, `export type`, or every name imported marked `type`. */
  typeOnly: boolean;
}

const importsRead = new Map<string, Import[]>();

const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');

/**
 * Relative imports (`import … from './x.ts'`, `import './x.ts'`, `export … from`,
 * `import('./x.ts')`), resolved to repository paths. Read once per file: the checks ask often.
 */
export function importsOf(file: SourceFile): Import[] {
  const key = `${file.path}\n${file.text}`;
  const known = importsRead.get(key);
  if (known) return known;
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (isRelative(spec)) out.push({ target: join(dirname(file.path), spec).split('\\').join('/'), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, importIsTypeOnly(node.importClause));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (names !== undefined && names.length > 0 && names.every((n) => n.isTypeOnly)));
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true); // `import('./x.ts').T` in a type
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  importsRead.set(key, out);
  return out;
}

/** `import type …`, or `import { type A, type B }`: nothing of the module is loaded. */
function importIsTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x.ts'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false; // a default import
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** The cycles of the import graph: each strongly connected component of more than one file. */
export function importCycles(files: SourceFile[], opts: { includeTypeOnly: boolean }): string[][] {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map(
    files.map((f) => [
      f.path,
      importsOf(f)
        .filter((i) => (opts.includeTypeOnly || !i.typeOnly) && known.has(i.target))
        .map((i) => i.target),
    ]),
  );
  return circles(edges);
}

/** The circles of a directed graph: each strongly connected component of more than one node (Tarjan). */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
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
  for (const v of edges.keys()) if (!indexOf.has(v)) visit(v);
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
  return [...withoutComments(text).matchAll(/`(?:\\[\s\S]|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g)].map((m) =>
    m[0].slice(1, -1),
  );
}

export function sqlIn(file: SourceFile): string[] {
  const found = stringLiterals(file.text)
    .filter((s) => SQL_STATEMENT.some((re) => re.test(s)))
    .map((s) => s.replace(/\s+/g, ' ').slice(0, 60));
  if (QUERY_CALL.test(withoutComments(file.text))) found.push('a .query( / .script( call');
  return found;
}

/** Pairs of top-level folders (or root files) that import each other: `src/a <-> src/b`. */
export function folderCycles(files: SourceFile[], includeTypeOnly: boolean): string[] {
  const folder = (p: string) => p.split('/').slice(0, 2).join('/').replace(/\.ts$/, '');
  const edges = new Set<string>();
  for (const f of files) {
    for (const i of importsOf(f))
      if ((includeTypeOnly || !i.typeOnly) && folder(f.path) !== folder(i.target)) edges.add(`${folder(f.path)} -> ${folder(i.target)}`);
  }
  const pairs = new Set<string>();
  for (const e of edges) {
    const [a, b] = e.split(' -> ') as [string, string];
    if (edges.has(`${b} -> ${a}`)) pairs.add(a < b ? `${a} <-> ${b}` : `${b} <-> ${a}`);
  }
  return [...pairs].sort();
}
