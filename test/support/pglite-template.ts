// A PGlite database made and migrated once per test run, that the tests start from instead
// of an empty one. PGlite's initdb is most of the cost of a new PGlite database — about 3 s
// in a test process and 10 s in a fresh `metaserver serve` on a loaded 2-core machine,
// against under one second for one loaded from a made directory — and the suite makes
// dozens of them. Global setup has it made before the tests start (test/support/global-setup.ts);
// if that failed, a test starts from an empty database as before, which ends the same
// (migrated). What the tests check starts after that point: the migrations still run on an
// empty database in making it (test/support/make-pglite-template.ts), on every PostgreSQL
// schema the tests make, and in the tests that start a migrate on an empty data directory
// on purpose (test/deploy/data-dir-owner.test.ts).
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Queryable } from '../../src/db/database.ts';
import type { PgliteTemplate } from './make-pglite-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: PgliteTemplate;
  }
}

/** The template; undefined if making it failed. */
function readyTemplate(): PgliteTemplate | undefined {
  const template = inject('pgliteTemplate');
  return template && existsSync(template.dump) ? template : undefined;
}

/** The migrated template as loadDataDir wants it (for openPglite), or undefined: start from an empty database. */
export function pgliteTemplateDump(): Blob | undefined {
  const template = readyTemplate();
  return template ? new Blob([readFileSync(template.dump)]) : undefined;
}

/**
 * A copy of the template holds the template's installation id (migration 006 draws one for
 * each new database, and the Redis key prefix comes from it): this draws a new one, as that
 * migration does, so that two databases of a test are two installations again.
 */
export async function newInstallationId(db: Queryable): Promise<void> {
  await db.query(`update settings set value = replace(gen_random_uuid()::text, '-', '') where key = 'installation_id'`);
}

/**
 * Puts a copy of the migrated template where a data directory keeps its PGlite database
 * (`<dataDir>/pg`), so a `metaserver serve` started on it skips initdb; without a template,
 * leaves dataDir empty (the process then makes its database itself). Returns dataDir.
 * The copies share the template's installation id: open it and call newInstallationId, or give
 * the process a queue prefix of its own (METASERVER_QUEUE_PREFIX), as the tests using it do.
 */
export function seedDataDir(dataDir: string): string {
  const template = readyTemplate();
  if (template) cpSync(template.dir, join(dataDir, 'pg'), { recursive: true });
  return dataDir;
}
