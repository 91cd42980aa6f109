// The house, floor by floor: which layer each source file stands on, and what the import
// graph looks like against that order (imports that climb, circles). The guard tests in
// boundaries.test.ts and scripts/import-graph.ts read the same declaration and measures.
import { circles, importCycles, importsOf, type SourceFile } from './source-files.ts';

/**
 * One floor: its members are folders (`src/x/`: every file below), files (`src/x.ts`) or
 * patterns. A file stands on the floor of its most precise member: a file named outright,
 * then a pattern, then the longest folder.
 */
export interface Layer {
  name: string;
  members: ReadonlyArray<string | RegExp>;
}

/** Route modules (the plugin, its schemas, its handlers) face HTTP: they stand at the top, whatever folder holds them. */
const ROUTES = /(^|\/|-)(routes|route-schemas|route-handlers)\.ts$/;

/** The floors, ground first. Nothing imports (at run time) from a floor above its own. */
export const LAYERS: readonly Layer[] = [
  // The pure core: no I/O of its own, no knowledge of the families beyond their names. The
  // task-name leaf (tasks/names.ts) is what the plumbing above needs of the families.
  {
    name: 'core',
    members: [
      'src/shared/',
      'src/scoring/',
      'src/formats/',
      'src/uniprot/',
      'src/tasks/',
      'src/xmlrpc/codec.ts',
      'src/xmlrpc/codec-charrefs.ts',
      'src/xmlrpc/codec-decode.ts',
      'src/xmlrpc/codec-encode.ts',
      'src/xmlrpc/codec-parse.ts',
      'src/xmlrpc/codec-scalars.ts',
      'src/xmlrpc/codec-values.ts',
      'src/xmlrpc/errors.ts',
    ],
  },
  // The plumbing every service stands on: configuration, logging, the database and its
  // migrations, the Redis queue helpers, HTTP helpers and the principal of a request.
  { name: 'plumbing', members: ['src/config.ts', 'src/log.ts', 'src/db/', 'src/queue/', 'src/http/', 'src/auth/'] },
  // The task families, each in its folder, and the full registry that lists them.
  { name: 'families', members: ['src/families/'] },
  // Services: dispatch and its protocols, consensus, leaderboards, callbacks, the servers'
  // lifecycle, articles, challenges, test suites — they read the registry and repositories.
  {
    name: 'services',
    members: [
      'src/agent/',
      'src/articles/',
      'src/backup/',
      'src/callbacks/',
      'src/challenges/',
      'src/consensus/',
      'src/dispatch/',
      'src/leaderboard/',
      'src/metrics/',
      'src/pull/',
      'src/reliability/',
      'src/sample/',
      'src/servers/',
      'src/teams/',
      'src/testsuites/',
    ],
  },
  // The edge: routes (and the test-suite report page, a route of its own), pages, the BCMS
  // XML-RPC API, the command line, the composition root and the process's runtime.
  {
    name: 'edge',
    members: [
      ROUTES,
      'src/testsuites/report-page.ts',
      'src/web/',
      'src/health/',
      'src/bcms/',
      'src/cli/',
      'src/app.ts',
      'src/app-context.ts',
      'src/runtime.ts',
      'src/runtime-open.ts',
      'src/runtime-workers.ts',
      'src/main.ts',
    ],
  },
];

/** The floor (index into LAYERS) a file stands on; undefined: no floor names it. */
export function layerOf(path: string, layers: readonly Layer[] = LAYERS): number | undefined {
  let best: { layer: number; rank: number } | undefined;
  layers.forEach((layer, index) => {
    for (const m of layer.members) {
      const rank =
        typeof m === 'string' ? (m === path ? Infinity : m.endsWith('/') && path.startsWith(m) ? m.length : -1) : m.test(path) ? 1e6 : -1;
      if (rank >= 0 && (!best || rank > best.rank)) best = { layer: index, rank };
    }
  });
  return best?.layer;
}

export interface UpwardImport {
  from: string;
  to: string;
  /** `core -> families`. */
  climb: string;
}

/** Run-time imports (and type imports, if asked) from a file on a lower floor to one on a higher floor. */
export function upwardImports(files: readonly SourceFile[], layers: readonly Layer[] = LAYERS, includeTypeOnly = false): UpwardImport[] {
  const known = new Set(files.map((f) => f.path));
  const out: UpwardImport[] = [];
  for (const f of files) {
    const from = layerOf(f.path, layers);
    for (const i of importsOf(f)) {
      if ((i.typeOnly && !includeTypeOnly) || !known.has(i.target)) continue;
      const to = layerOf(i.target, layers);
      if (from !== undefined && to !== undefined && to > from)
        out.push({ from: f.path, to: i.target, climb: `${layers[from].name} -> ${layers[to].name}` });
    }
  }
  return out;
}

/** The top-level folder of a file (`src/servers`), or the root file without `.ts` (`src/config`). */
export const folderOf = (path: string) => path.split('/').slice(0, 2).join('/').replace(/\.ts$/, '');

/**
 * Circles across folders: each set of top-level folders that reach each other through
 * imports (a strongly connected component of the folder graph).
 */
export function folderCircles(files: readonly SourceFile[], includeTypeOnly = false): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    for (const i of importsOf(f)) {
      if ((!includeTypeOnly && i.typeOnly) || folderOf(f.path) === folderOf(i.target)) continue;
      if (!edges.has(folderOf(f.path))) edges.set(folderOf(f.path), new Set());
      edges.get(folderOf(f.path))!.add(folderOf(i.target));
    }
  }
  return circles(new Map([...edges].map(([folder, targets]) => [folder, [...targets]])));
}

/** Circles of files (run-time imports; type imports too, if asked), largest first. */
export function fileCircles(files: SourceFile[], includeTypeOnly = false): string[][] {
  return importCycles(files, { includeTypeOnly }).sort((a, b) => b.length - a.length);
}
