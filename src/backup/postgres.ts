// Backups of PostgreSQL with the machine's own pg_dump and pg_restore (custom format):
// pg_dump reads one snapshot, so a backup taken while the meta-server serves is consistent.
// When DATABASE_URL selects a schema (options=-c search_path=…), only that schema is dumped.
import { spawn } from 'node:child_process';
import { BackupError } from './errors.ts';

/** The schema a DATABASE_URL selects through `options=-c search_path=…`, if any. */
export function urlSchema(url: string): string | undefined {
  try {
    const options = new URL(url).searchParams.get('options') ?? '';
    return /(?:^|\s)-c\s*search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The URL for libpq tools: only sslmode kept (a search_path is given as --schema to pg_dump,
 * and a custom-format dump recreates its schema; node-postgres's own parameters mean nothing to libpq).
 */
function toolUrl(url: string): string {
  const u = new URL(url);
  for (const key of [...u.searchParams.keys()]) if (key !== 'sslmode') u.searchParams.delete(key);
  return u.toString();
}

async function run(binary: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(
              `${binary} was not found: install PostgreSQL's client programs (Debian/Ubuntu: \`sudo apt-get install postgresql-client\`, of the server's major version or newer)`,
            )
          : new BackupError(`${binary} could not be started: ${err.message}`),
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${binary} failed (exit code ${code}): ${stderr.trim()}`)),
    );
  });
}

export async function pgDump(url: string, out: string): Promise<void> {
  const schema = urlSchema(url);
  await run('pg_dump', [
    '--format=custom',
    '--no-owner',
    `--file=${out}`,
    ...(schema ? [`--schema=${schema}`] : []),
    `--dbname=${toolUrl(url)}`,
  ]);
}

/** Restores into the database DATABASE_URL names, which should be fresh (empty). */
export async function pgRestore(url: string, file: string): Promise<void> {
  await run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${toolUrl(url)}`, file]);
}
