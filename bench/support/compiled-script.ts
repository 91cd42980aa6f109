// A bench child process's TypeScript entry compiled to one JavaScript file, so the child runs
// on plain node. Through tsx, a process carries ~100 MB more RSS (measured: an idle child
// 207–214 MB through tsx against ~110 MB for the meta-server's own bundle), which would
// swamp a memory floor.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cacheDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache', 'metaserver-bench');

/** Bundles `entry` (its npm imports stay imports) and returns the path of the .mjs file. */
export async function compiledScript(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  const outfile = join(cacheDir, basename(entry).replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}
