// Makes the run's migrated PGlite template (test/support/pglite-template.ts says what it is
// for) under the folder given: `node --import tsx make-pglite-template.ts ROOT`. Global setup
// runs it as a process of its own, side by side with its other work.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';

export interface PgliteTemplate {
  /** A closed PGlite data directory at the latest migration (copy it, never open it). */
  dir: string;
  /** The same database as PGlite's dump (dumpDataDir, uncompressed): loadDataDir's input. Written last: it exists once both are complete. */
  dump: string;
}

/** Where the template lives under root. */
export function pgliteTemplatePaths(root: string): PgliteTemplate {
  return { dir: join(root, 'pg'), dump: join(root, 'pg.tar') };
}

/** Makes the template under root: the directory, then the dump, renamed into place whole. */
export async function makePgliteTemplate(root: string): Promise<void> {
  const { dir, dump } = pgliteTemplatePaths(root);
  mkdirSync(root, { recursive: true });
  const db = await openPglite(dir);
  try {
    await migrate(db);
    writeFileSync(`${dump}.partial`, new Uint8Array(await (await db.pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await db.close();
  }
  renameSync(`${dump}.partial`, dump);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2];
  if (!root) throw new Error('usage: make-pglite-template.ts ROOT');
  await makePgliteTemplate(root);
}
