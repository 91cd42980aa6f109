// Exports nothing else imports, read with the TypeScript parser: each file's exported
// declarations against every named import and re-export of the tree (src, test, bench,
// scripts). A file imported whole (`import * as`, a side-effect import, `import()`) counts as
// using every export. Kept apart from source-files.ts: this one reads the whole tree.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { ROOT, sourceFiles, type SourceFile } from './source-files.ts';

export interface UnusedExport {
  file: string;
  name: string;
  /** `value` (function, const, class): run-time code; `type` (interface, type alias). */
  kind: 'value' | 'type';
}

const target = (from: string, spec: string) => (spec.startsWith('.') ? join(dirname(from), spec).split('\\').join('/') : undefined);

/** Every export of `files` that no file of `readers` imports by name (and that is not imported whole). */
export function unusedExports(files: readonly SourceFile[], readers: readonly SourceFile[]): UnusedExport[] {
  const used = new Map<string, Set<string>>();
  const whole = new Set<string>();
  const use = (file: string, name: string) => (used.get(file) ?? used.set(file, new Set()).get(file)!).add(name);
  for (const reader of readers) {
    const source = ts.createSourceFile(reader.path, reader.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const file = target(reader.path, node.moduleSpecifier.text);
        if (file && ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (!clause?.namedBindings || ts.isNamespaceImport(clause.namedBindings)) whole.add(file);
          else for (const e of clause.namedBindings.elements) use(file, (e.propertyName ?? e.name).text);
          if (clause?.name) use(file, 'default');
        } else if (file && ts.isExportDeclaration(node)) {
          if (node.exportClause && ts.isNamedExports(node.exportClause))
            for (const e of node.exportClause.elements) use(file, (e.propertyName ?? e.name).text);
          else whole.add(file);
        }
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [spec] = node.arguments;
        const file = spec && ts.isStringLiteral(spec) ? target(reader.path, spec.text) : undefined;
        if (file) whole.add(file);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const out: UnusedExport[] = [];
  for (const file of files) {
    if (whole.has(file.path)) continue;
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const names: Array<[string, UnusedExport['kind']]> = [];
      if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push([d.name.text, 'value']);
      if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name)
        names.push([statement.name.text, 'value']);
      if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name)
        names.push([statement.name.text, 'type']);
      for (const [name, kind] of names) if (!used.get(file.path)?.has(name)) out.push({ file: file.path, name, kind });
    }
  }
  return out;
}

/** The tree's readers: every TypeScript file of src, test, bench and scripts. */
export function treeReaders(root = ROOT): SourceFile[] {
  return ['src', 'test', 'bench', 'scripts'].filter((dir) => existsSync(join(root, dir))).flatMap((dir) => sourceFiles(dir, root));
}
