// The house rules, checked on the source text so they hold as the code grows:
// - one door to the database: SQL only in repositories (and the database layer itself);
//   routes and services get repositories from the composition root, never the handle;
// - repositories are built in one place (app-context.ts), not inside routes or services;
// - no import cycles between files, and none of the folder cycles that were broken;
// - the floors of the house (layers.ts): no run-time import climbs from a lower floor to a
//   higher one, and no circle runs across folders.
// A rule that must bend names the file and the reason in an allow-list below.
import { describe, expect, it } from 'vitest';
import { fileCircles, folderCircles, LAYERS, layerOf, upwardImports } from './layers.ts';
import { treeReaders, unusedExports } from './unused-exports.ts';
import {
  folderCycles,
  importCycles,
  importsOf,
  isDatabaseLayer,
  isRepository,
  sourceFiles,
  sqlIn,
  withoutComments,
} from './source-files.ts';

const FILES = sourceFiles();

/** Files that hold SQL without being named a repository, and why. */
const SQL_ALLOWED: Record<string, string> = {
  'src/dispatch/dispatch-store.ts':
    'DispatchStore is the repository of deliveries, attempts and answers; it is named for its group commit and retries',
  'src/dispatch/write-batch.ts': "DispatchStore's batched write (one script per group commit)",
};

/** Files that serve HTTP: they are handed repositories and services, never the database handle. */
const isHttpFace = (path: string) =>
  /(^|\/|-)(routes|route-schemas|route-handlers)\.ts$/.test(path) || path.startsWith('src/web/') || path.startsWith('src/bcms/');

describe('one door to the database', () => {
  it('finds the SQL detector working (it sees the repositories)', () => {
    expect(sqlIn(FILES.find((f) => f.path === 'src/servers/repository.ts')!).length).toBeGreaterThan(3);
    expect(sqlIn({ path: 'x.ts', text: "const q = 'select id from servers where x = 1';" })).toHaveLength(1);
    expect(sqlIn({ path: 'x.ts', text: 'html`<select id="${id}" name="phase">`' })).toHaveLength(0);
  });

  it('keeps SQL in repositories and the database layer only', () => {
    const outside = FILES.filter((f) => !isRepository(f.path) && !isDatabaseLayer(f.path) && !(f.path in SQL_ALLOWED))
      .map((f) => ({ file: f.path, sql: sqlIn(f) }))
      .filter((f) => f.sql.length > 0);
    expect(outside, 'move these queries into a repository (a class built with the db handle in app-context.ts)').toEqual([]);
  });

  it('lists in the allow-list only files that still hold SQL', () => {
    for (const path of Object.keys(SQL_ALLOWED)) expect(sqlIn(FILES.find((f) => f.path === path)!), path).not.toEqual([]);
  });

  it('gives routes no database handle: the AppContext holds none, and no HTTP face imports the database seam', () => {
    const context = FILES.find((f) => f.path === 'src/app-context.ts')!.text;
    const body = context.slice(context.indexOf('export interface AppContext'));
    const fields = body.slice(0, body.indexOf('\n}'));
    expect(fields).not.toMatch(/:\s*(Database|Queryable)\b/);
    const faces = FILES.filter((f) => isHttpFace(f.path));
    expect(faces.length).toBeGreaterThan(10);
    const holding = faces
      .filter((f) => importsOf(f).some((i) => i.target === 'src/db/database.ts') || /\bctx\.db\b/.test(f.text))
      .map((f) => f.path);
    expect(holding).toEqual([]);
  });

  it('builds repositories in the composition root only (a repository may join a transaction with another)', () => {
    const building = FILES.filter(
      (f) => f.path !== 'src/app-context.ts' && !isRepository(f.path) && /new [A-Z]\w*Repository\(/.test(withoutComments(f.text)),
    ).map((f) => f.path);
    expect(building).toEqual([]);
  });
});

/**
 * Folder cycles that remain (runtime imports), each with why it is tolerated for now. A
 * new cycle fails the test; so does one listed here that is gone (drop it from the list).
 * Empty since issue 29: keep it so.
 */
const FOLDER_CYCLES_KNOWN: Record<string, string> = {};
/** Folder cycles broken by issue 19; they must not come back, not even through type imports. */
const FOLDER_CYCLES_BROKEN = ['src/consensus <-> src/leaderboard', 'src/articles <-> src/dispatch'];

describe('imports', () => {
  it('form no cycle between files (imports run at load time)', () => {
    expect(importCycles(FILES, { includeTypeOnly: false })).toEqual([]);
  });

  it('reads every import, whatever the comments before it hold', () => {
    // A line comment holding `/*` (a glob) once hid the imports after it from a pattern reader.
    const text = [
      '// see src/families/* for the families',
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import { type C, type D } from './c.ts';",
      "export { e } from './e.ts';",
      "export type { F } from './f.ts';",
      "/* a block with // inside */ import './g.ts';",
      "const h = () => import('./h.ts'); // */",
      "const s = '// not a comment'; import { i } from './i.ts';",
    ].join('\n');
    expect(importsOf({ path: 'src/x/y.ts', text })).toEqual([
      { target: 'src/x/a.ts', typeOnly: false },
      { target: 'src/b.ts', typeOnly: true },
      { target: 'src/x/c.ts', typeOnly: true },
      { target: 'src/x/e.ts', typeOnly: false },
      { target: 'src/x/f.ts', typeOnly: true },
      { target: 'src/x/g.ts', typeOnly: false },
      { target: 'src/x/h.ts', typeOnly: false },
      { target: 'src/x/i.ts', typeOnly: false },
    ]);
    expect(withoutComments(text)).not.toMatch(/see src|a block|\/\/ \*\//);
    expect(withoutComments(text)).toContain("'// not a comment'");
  });

  it('finds the cycle detector working', () => {
    const a = { path: 'src/a.ts', text: "import { b } from './b.ts';" };
    const b = { path: 'src/b.ts', text: "import type { A } from './a.ts';" };
    expect(importCycles([a, b], { includeTypeOnly: true })).toEqual([['src/a.ts', 'src/b.ts']]);
    expect(importCycles([a, b], { includeTypeOnly: false })).toEqual([]);
  });

  it('keep the broken folder cycles broken, type imports included', () => {
    const cycles = folderCycles(FILES, true);
    for (const broken of FOLDER_CYCLES_BROKEN) expect(cycles, broken).not.toContain(broken);
  });

  it('add no folder cycle beyond the known ones', () => {
    expect(folderCycles(FILES, false)).toEqual(Object.keys(FOLDER_CYCLES_KNOWN).sort());
  });
});

/**
 * Run-time imports that climb to a higher floor (layers.ts), `from -> to`, each with why it
 * is tolerated. None since issue 29 (there were 10 against the same floors before it).
 */
const UPWARD_ALLOWED: Record<string, string> = {};

/**
 * Type imports that climb (erased at run time, so no load order depends on them), each with
 * why: a new one fails, so a floor does not start leaning on the one above unnoticed.
 */
const UPWARD_TYPES_ALLOWED: Record<string, string> = {
  'src/auth/principal.ts -> src/teams/repository.ts': "a team principal carries the team's repository row",
  'src/formats/common.ts -> src/families/mention/types.ts':
    'formats that carry mentions only (BRAT, BIO, PubAnnotation) read and write MENTION items',
  'src/formats/bio.ts -> src/families/mention/types.ts':
    'formats that carry mentions only (BRAT, BIO, PubAnnotation) read and write MENTION items',
  'src/formats/brat.ts -> src/families/mention/types.ts':
    'formats that carry mentions only (BRAT, BIO, PubAnnotation) read and write MENTION items',
  'src/formats/pubannotation.ts -> src/families/mention/types.ts':
    'formats that carry mentions only (BRAT, BIO, PubAnnotation) read and write MENTION items',
  'src/formats/a1a2.ts -> src/families/coref/types.ts': 'the A1/A2 format reads and writes COREF links',
};

describe('the floors of the house (layers.ts)', () => {
  it('puts every source file on a floor', () => {
    expect(FILES.filter((f) => layerOf(f.path) === undefined).map((f) => f.path)).toEqual([]);
    expect(LAYERS.map((l) => l.name)).toEqual(['core', 'plumbing', 'families', 'services', 'edge']);
  });

  it('finds the floor of a file by its most precise member', () => {
    expect(layerOf('src/tasks/names.ts')).toBe(0);
    expect(layerOf('src/xmlrpc/codec.ts')).toBe(0);
    expect(layerOf('src/families/registry.ts')).toBe(2);
    expect(layerOf('src/servers/setup-check/call-server.ts')).toBe(3);
    expect(layerOf('src/servers/routes.ts')).toBe(4);
    const climb = upwardImports([
      { path: 'src/shared/x.ts', text: "import { r } from '../families/registry.ts';" },
      { path: 'src/families/registry.ts', text: "import type { C } from '../app-context.ts';" },
      { path: 'src/app-context.ts', text: '' },
    ]);
    expect(climb).toEqual([{ from: 'src/shared/x.ts', to: 'src/families/registry.ts', climb: 'core -> families' }]);
  });

  it('has no run-time import climbing to a higher floor beyond the listed ones', () => {
    const found = upwardImports(FILES).map((u) => `${u.from} -> ${u.to}`);
    expect(found, 'move the piece both floors need to the lower floor, or declare it as data the upper floor reads').toEqual(
      Object.keys(UPWARD_ALLOWED),
    );
    expect(found.length).toBeLessThanOrEqual(25);
  });

  it('has no type import climbing to a higher floor beyond the listed ones', () => {
    const found = upwardImports(FILES, LAYERS, true)
      .filter((u) => !(`${u.from} -> ${u.to}` in UPWARD_ALLOWED))
      .map((u) => `${u.from} -> ${u.to}`);
    expect(found.sort()).toEqual(Object.keys(UPWARD_TYPES_ALLOWED).sort());
  });

  it('has no circle across folders (run-time imports)', () => {
    expect(folderCircles(FILES)).toEqual([]);
    expect(
      folderCircles([
        { path: 'src/a/x.ts', text: "import '../b/y.ts';" },
        { path: 'src/b/y.ts', text: "import '../c.ts';" },
        { path: 'src/c.ts', text: "import './a/z.ts';" },
        { path: 'src/a/z.ts', text: '' },
      ]),
    ).toEqual([['src/a', 'src/b', 'src/c']]);
  });

  it('has no circle of files across folders, type imports included', () => {
    // formats/common.ts named the registry's AnswerResult until issue 29, which tied the
    // families and the formats into one circle of 40 files; it names the results by shape now.
    const across = fileCircles(FILES, true).filter((c) => new Set(c.map((p) => p.split('/').slice(0, 2).join('/'))).size > 1);
    expect(across).toEqual([]);
    const typeCircle = [
      { path: 'src/formats/common.ts', text: "import type { AnswerResult } from '../families/registry.ts';" },
      { path: 'src/families/registry.ts', text: "import { x } from '../formats/common.ts';" },
    ];
    expect(fileCircles(typeCircle, true)).toEqual([['src/families/registry.ts', 'src/formats/common.ts']]);
    expect(fileCircles(typeCircle, false)).toEqual([]);
  });
});

/** Files (outside the one home of a concept) that mention what only that home should do. */
function filesMatching(pattern: RegExp, except: readonly string[]): string[] {
  return FILES.filter((f) => !except.includes(f.path) && pattern.test(withoutComments(f.text))).map((f) => f.path);
}

describe('concepts once', () => {
  it('makes BullMQ workers in one factory (queue/worker.ts)', () => {
    expect(filesMatching(/from 'bullmq'[\s\S]*new Worker\b|new Worker\b[\s\S]*from 'bullmq'/, ['src/queue/worker.ts'])).toEqual([]);
  });

  it('decodes strict UTF-8 in one place (shared/utf8.ts), for request bodies and answers alike', () => {
    // formats/text-decoding.ts decodes the other encodings an XML file may declare (UTF-16, Shift_JIS…) as strictly.
    expect(filesMatching(/fatal:\s*true/, ['src/shared/utf8.ts', 'src/formats/text-decoding.ts'])).toEqual([]);
  });

  it('maps code points and UTF-16 in one module (shared/code-points.ts)', () => {
    const allowed = [
      'src/shared/code-points.ts',
      'src/http/storable-text.ts', // finds lone surrogates to refuse them; no offsets
      'src/xmlrpc/codec-charrefs.ts', // joins surrogate pairs written as two character references
      'src/tasks/offset-hint.ts', // UTF-8 byte offsets, for the hint to a server that counted bytes
    ];
    expect(filesMatching(/0x[dD][89a-fA-F]00\b|function\s+codePoint|function\s+sliceCodePoints/, allowed)).toEqual([]);
  });

  it('calls the meta-server API from the CLI through one client (cli/api-client.ts)', () => {
    const cli = FILES.filter((f) => f.path.startsWith('src/cli/') || f.path.startsWith('src/testsuites/'));
    expect(
      cli.filter((f) => f.path !== 'src/cli/api-client.ts' && /from 'undici'|\bfetch\(/.test(withoutComments(f.text))).map((f) => f.path),
    ).toEqual([]);
  });

  it('has no function named the vague pairKey', () => {
    expect(filesMatching(/\bpairKey\b/, [])).toEqual([]);
  });
});

describe('exports', () => {
  it('finds the unused-export reader working (named, renamed and whole-file imports)', () => {
    const lib = { path: 'src/lib.ts', text: 'export const a = 1;\nexport function b() {}\nexport const c = 2;\nexport interface T {}\n' };
    const whole = { path: 'src/whole.ts', text: 'export const w = 1;\n' };
    const user = { path: 'test/u.ts', text: "import { a, b as bee } from '../src/lib.ts';\nimport * as all from '../src/whole.ts';\n" };
    expect(unusedExports([lib, whole], [lib, whole, user])).toEqual([
      { file: 'src/lib.ts', name: 'c', kind: 'value' },
      { file: 'src/lib.ts', name: 'T', kind: 'type' },
    ]);
  });

  it('exports no function, constant or class that no other file imports (drop the export, or the code)', () => {
    // Types may stay exported unused: they name the shapes of exported signatures.
    const unused = unusedExports(FILES, treeReaders()).filter((u) => u.kind === 'value');
    expect(unused.map((u) => `${u.file}: ${u.name}`)).toEqual([]);
  });
});
