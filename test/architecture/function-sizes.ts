// Measures the size of code the way a reader meets it: the outermost functions of each file
// (a function not nested in another: a declaration, a method, an arrow bound to a constant),
// with the lines each spans, and the lines of each file. The guard tests in
// boundaries.test.ts and scripts/code-sizes.ts read the same measures.
import ts from 'typescript';
import type { SourceFile } from './source-files.ts';

export interface FunctionSize {
  /** `src/articles/routes.ts` */
  path: string;
  /** What the function is called where it is written: `articleRoutes`, `ArticleRepository.insert`. */
  name: string;
  /** The line its text starts on, from 1. */
  line: number;
  /** Lines from its first to its last, both counted. */
  lines: number;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would give the function: its own, its binding's, or its class's member. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  const cls = ts.isClassLike(node.parent) ? (node.parent.name?.text ?? 'class') : undefined;
  if (ts.isConstructorDeclaration(node)) return `${cls ?? 'class'}.constructor`;
  if (own !== undefined) return cls ? `${cls}.${own}` : own;
  let up: ts.Node = node.parent;
  // `const f = (…) => …`, `x: (…) => …`, `export default function`, or a call's argument.
  while (up && !ts.isSourceFile(up)) {
    if (ts.isVariableDeclaration(up) && ts.isIdentifier(up.name)) return up.name.text;
    if (ts.isPropertyDeclaration(up))
      return `${ts.isClassLike(up.parent) ? (up.parent.name?.text ?? 'class') : 'class'}.${up.name.getText(source)}`;
    if (ts.isPropertyAssignment(up)) return up.name.getText(source);
    if (ts.isExportAssignment(up)) return 'default';
    up = up.parent;
  }
  return `(anonymous)`;
}

/** The outermost functions of one file, longest first. */
export function outermostFunctions(file: SourceFile): FunctionSize[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const found: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ path: file.path, name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
      return; // what is inside is part of this one
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => b.lines - a.lines);
}

/** Every outermost function of the files, longest first. */
export function longestFunctions(files: readonly SourceFile[]): FunctionSize[] {
  return files.flatMap(outermostFunctions).sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}

/** Lines of a file's text (a last line without a newline counts). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
