// Several processes migrating one fresh PostgreSQL schema at once — what compose's api and
// workers do on their first start when nothing migrated before them. Every one of them must
// succeed, and the schema must come out migrated once. Needs PostgreSQL (DATABASE_URL).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { TASK_NAMES } from '../../src/families/registry.ts';
// @ts-expect-error -- a plain JavaScript module of the build (no type declarations)
import { ensureBundle } from '../../scripts/bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIGRATION_NAMES = readdirSync(join(root, 'src', 'db', 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort();
const MIGRATIONS = MIGRATION_NAMES.length;
const url = process.env.DATABASE_URL;
const ROUNDS = 6;
const PROCESSES = 4;

function schemaUrl(schema: string): string {
  const u = new URL(url!);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

describe.skipIf(!url)('migrations started by several processes at once on a fresh database', () => {
  let admin: Database;
  const schemas: string[] = [];

  beforeAll(async () => {
    admin = await openPostgres({ url: url! });
    // The processes below start from the bundle, as an installed or image start does
    // (through tsx each would take twice as long).
    await (ensureBundle as () => Promise<void>)();
  });
  afterAll(async () => {
    for (const schema of schemas) await admin.exec(`drop schema if exists "${schema}" cascade`);
    await admin?.close();
  });

  async function freshSchema(): Promise<string> {
    const schema = `m_${randomBytes(6).toString('hex')}`;
    await admin.exec(`create schema "${schema}"`);
    schemas.push(schema);
    return schema;
  }

  async function expectMigratedOnce(schema: string): Promise<void> {
    const [row] = await admin.query<{ migrations: number; families: number }>(
      `select (select count(*)::int from "${schema}".schema_migrations) as migrations, (select count(*)::int from "${schema}".task_families) as families`,
    );
    expect(row).toEqual({ migrations: MIGRATIONS, families: TASK_NAMES.length });
  }

  it(`${ROUNDS} rounds of ${PROCESSES} \`metaserver migrate\` processes: every one exits 0`, async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const schema = await freshSchema();
      const runs = Array.from(
        { length: PROCESSES },
        () =>
          new Promise<void>((resolve) => {
            const child = spawn(process.execPath, [join(root, 'bin', 'metaserver.js'), 'migrate'], {
              env: { ...process.env, DATABASE_URL: schemaUrl(schema), LOG_LEVEL: 'warn' },
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            child.stderr.on('data', (chunk) => (stderr += chunk));
            child.once('exit', (code) => {
              if (code !== 0) failures.push(`round ${round}: exit ${code}: ${stderr.trim()}`);
              resolve();
            });
          }),
      );
      await Promise.all(runs);
      await expectMigratedOnce(schema);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('10 rounds of 4 connections migrating at once in one process: no error, each migration once', async () => {
    for (let round = 0; round < 10; round++) {
      const schema = await freshSchema();
      const dbs = await Promise.all(Array.from({ length: 4 }, () => openPostgres({ url: schemaUrl(schema), max: 1 })));
      try {
        const results = await Promise.allSettled(dbs.map((db) => migrate(db)));
        expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
        // Each migration applied by exactly one of them (not always the same one: they take
        // the lock in turns); the others found it done.
        const applied = results.flatMap((r) => (r as PromiseFulfilledResult<string[]>).value).sort();
        expect(applied).toEqual(MIGRATION_NAMES);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
      await expectMigratedOnce(schema);
    }
  }, 120_000);
});
