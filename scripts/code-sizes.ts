// Prints the sizes a reader meets (test/architecture/function-sizes.ts): the longest outermost
// functions of src/, the largest files, the largest routes files, and the files that import
// the application context. For a tree given as argument too (an older checkout, to compare
// before and after a move).
//
//   npx tsx scripts/code-sizes.ts [repository root] [--top N]
import { resolve } from 'node:path';
import { lineCount, longestFunctions } from '../test/architecture/function-sizes.ts';
import { importsOf, ROOT, sourceFiles } from '../test/architecture/source-files.ts';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const root = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top') ?? ROOT);
const files = sourceFiles('src', root);
const isRoutes = (path: string) => /(^|\/|-)routes\.ts$/.test(path);

console.log(`${files.length} source files under ${root === ROOT ? 'this tree' : root}`);

const functions = longestFunctions(files);
console.log(`\nlongest outermost functions (of ${functions.length}):`);
for (const f of functions.slice(0, top)) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.path}:${f.line}`);
console.log(`over 100 lines: ${functions.filter((f) => f.lines > 100).length}`);
console.log(`routes plugins among the ${top} longest: ${functions.slice(0, top).filter((f) => isRoutes(f.path)).length}`);

const sized = files.map((f) => ({ path: f.path, lines: lineCount(f.text) })).sort((a, b) => b.lines - a.lines);
console.log(`\nlargest files:`);
for (const f of sized.slice(0, top)) console.log(`  ${String(f.lines).padStart(4)}  ${f.path}`);
const routes = sized.filter((f) => isRoutes(f.path));
console.log(`\nroutes files: ${routes.length}, over 300 lines: ${routes.filter((f) => f.lines > 300).length}`);
for (const f of routes.slice(0, 5)) console.log(`  ${String(f.lines).padStart(4)}  ${f.path}`);

const contextFile = 'src/app-context.ts';
const importers = files.filter((f) => importsOf(f).some((i) => i.target === contextFile)).map((f) => f.path);
console.log(`\nfiles importing ${contextFile}: ${importers.length}`);
for (const p of importers) console.log(`  ${p}`);
