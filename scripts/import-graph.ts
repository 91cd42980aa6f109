// Prints the shape of the import graph against the declared floors (test/architecture/layers.ts):
// the files on each floor, the run-time imports that climb from a lower floor to a higher
// one, the folder cycles and circles, and the circles of files. The guard tests check the
// same figures; this prints them, for a tree given as argument too (an older checkout, to
// compare before and after a move).
//
//   npx tsx scripts/import-graph.ts [repository root] [--list]
import { resolve } from 'node:path';
import { fileCircles, folderCircles, LAYERS, layerOf, upwardImports } from '../test/architecture/layers.ts';
import { folderCycles, ROOT, sourceFiles } from '../test/architecture/source-files.ts';

const args = process.argv.slice(2);
const list = args.includes('--list');
const root = resolve(args.find((a) => !a.startsWith('--')) ?? ROOT);
const files = sourceFiles('src', root);

console.log(`${files.length} source files under ${root === ROOT ? 'this tree' : root}`);
console.log('\nfloors, ground first:');
LAYERS.forEach((layer, index) =>
  console.log(`  ${index} ${layer.name.padEnd(9)} ${files.filter((f) => layerOf(f.path) === index).length} files`),
);
const homeless = files.filter((f) => layerOf(f.path) === undefined).map((f) => f.path);
if (homeless.length > 0) console.log(`  on no floor: ${homeless.join(', ')}`);

const upward = upwardImports(files);
console.log(
  `\nrun-time imports climbing to a higher floor: ${upward.length} (type imports too: ${upwardImports(files, LAYERS, true).length})`,
);
const byClimb = new Map<string, number>();
for (const u of upward) byClimb.set(u.climb, (byClimb.get(u.climb) ?? 0) + 1);
for (const [climb, n] of [...byClimb].sort()) console.log(`  ${climb}: ${n}`);
if (list) for (const u of upward) console.log(`    ${u.from} -> ${u.to}`);

const runtimePairs = folderCycles(files, false);
console.log(`\nfolder cycles (pairs importing each other at run time): ${runtimePairs.length}`);
for (const p of runtimePairs) console.log(`  ${p}`);
const typePairs = folderCycles(files, true).filter((p) => !runtimePairs.includes(p));
console.log(`folder cycles through type imports only: ${typePairs.length}`);
for (const p of typePairs) console.log(`  ${p}`);

const circles = folderCircles(files);
console.log(`\ncircles across folders (run time): ${circles.length}`);
for (const c of circles) console.log(`  ${c.length} folders: ${c.join(', ')}`);
const typeCircles = folderCircles(files, true);
console.log(`circles across folders, type imports too: ${typeCircles.length}`);
for (const c of typeCircles) console.log(`  ${c.length} folders: ${c.join(', ')}`);

const fc = fileCircles(files);
console.log(`\ncircles of files (run time): ${fc.length}`);
const show = (c: string[]) => `  ${c.length} files: ${c.length > 8 ? `${c.slice(0, 8).join(', ')}, …` : c.join(', ')}`;
for (const c of fc) console.log(show(c));
const typeFc = fileCircles(files, true);
console.log(`circles of files, type imports too: ${typeFc.length}`);
for (const c of typeFc) console.log(show(c));
