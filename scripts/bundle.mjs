// The one-file build `npm start` runs from: src/ bundled with esbuild into
// node_modules/.cache/metaserver/main.mjs (and its chunks), so a start does not transpile ~200 TypeScript
// files on the fly (about 2 s of a 5 s start on a small machine). Dependencies stay
// external — several read files next to themselves (BullMQ's Lua scripts, PGlite's WASM) —
// except the few in BUNDLED: pure JavaScript made of hundreds of small modules, whose
// loading one file at a time cost more than their code (typebox alone: ~0.3 s).
// bin/metaserver.js uses the bundle only while it matches the sources (a stamp of every
// source file's path, size and mtime); otherwise it runs the sources through tsx as before.
// An image builds it once, where METASERVER_BUNDLE_DIR says (`node scripts/bundle.mjs`), and
// then runs only from it (bin/metaserver.js): see the Dockerfile.
// Node built-ins only, apart from esbuild itself (loaded only to build).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the bundle lives: METASERVER_BUNDLE_DIR (relative to the project root) when set —
 * an image builds it as root at build time and runs as another user, so it keeps it out of
 * node_modules — else node_modules/.cache/metaserver. It must stay inside the project root:
 * the dependencies left external are found from there (node_modules).
 */
export const bundleDir = process.env.METASERVER_BUNDLE_DIR
  ? resolve(root, process.env.METASERVER_BUNDLE_DIR)
  : join(root, 'node_modules', '.cache', 'metaserver');
const dir = bundleDir;
export const bundleFile = join(dir, 'main.mjs');
const stampFile = join(dir, 'main.stamp');
const BUNDLED = new Set(['typebox']);

function walk(folder, out) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Changes whenever a source file is added, removed or touched. */
export function sourceStamp() {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url))); // how it is bundled
  for (const file of walk(join(root, 'src'), []).sort()) {
    const s = statSync(file);
    hash.update(`${relative(root, file)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** Every dependency (and its subpaths) but the BUNDLED ones. */
function externalPackages() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).filter((n) => !BUNDLED.has(n));
  return names.flatMap((n) => [n, `${n}/*`]);
}

/** The bundle, when it exists and matches the sources (and METASERVER_NO_BUNDLE is not set). */
export function freshBundle() {
  if (process.env.METASERVER_NO_BUNDLE === '1' || !existsSync(stampFile) || !existsSync(bundleFile)) return null;
  return readFileSync(stampFile, 'utf8') === sourceStamp() ? bundleFile : null;
}

/** Builds the bundle unless it is fresh. Source files that read files next to themselves
 * (import.meta.url) get their own URL back, so migrations and static pages are still found. */
export async function ensureBundle() {
  if (process.env.METASERVER_NO_BUNDLE === '1' || freshBundle()) return;
  const stamp = sourceStamp();
  const { build } = await import('esbuild');
  // Built beside the bundle, then each file renamed into place whole: a process starting
  // meanwhile (or a second build running at once, e.g. two test files) never reads a file
  // half written. The stamp comes last, so the bundle counts as fresh only when complete.
  mkdirSync(dir, { recursive: true });
  const staging = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  rmSync(staging, { recursive: true, force: true });
  const rewriteMetaUrl = {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        let contents = readFileSync(args.path, 'utf8');
        const own = JSON.stringify(relative(dir, args.path).split('\\').join('/'));
        if (contents.includes('import.meta.url'))
          contents = contents.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`);
        return { contents, loader: 'ts' };
      });
    },
  };
  try {
    await build({
      // The reading thread for big answers is a script of its own (src/dispatch/answer-reader.ts).
      entryPoints: [join(root, 'src', 'main.ts'), join(root, 'src', 'dispatch', 'reading-thread.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: externalPackages(),
      // Split at the dynamic imports: a subcommand's code and the dependencies only it needs
      // load when it runs (\`metaserver score\` does not load fastify, BullMQ or PGlite).
      splitting: true,
      outdir: staging, // the same depth as dir: the paths rewriteMetaUrl computes from dir hold
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      logLevel: 'warning',
      plugins: [rewriteMetaUrl],
    });
    const built = readdirSync(staging);
    for (const file of built) renameSync(join(staging, file), join(dir, file));
    for (const old of readdirSync(dir)) if (old.endsWith('.mjs') && !built.includes(old)) rmSync(join(dir, old), { force: true });
    writeFileSync(`${staging}.stamp`, stamp);
    renameSync(`${staging}.stamp`, stampFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// `node scripts/bundle.mjs`: build it now (an image does, at build time).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureBundle();
  if (!freshBundle()) {
    console.error(`metaserver: the bundle in ${dir} was not built (is METASERVER_NO_BUNDLE set?)`);
    process.exit(1);
  }
  console.error(`metaserver: bundle ready in ${dir}`);
}
