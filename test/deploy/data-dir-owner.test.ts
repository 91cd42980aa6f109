// One PGlite data directory, one owner, whatever Redis is used: with REDIS_URL given (no
// private Redis, whose lock used to be the only one), a second `serve`, a `migrate` or a
// `backup` on a directory a `serve` holds is refused with a sentence naming the holder (pid,
// command, since when) and exits non-zero without writing to the directory; a lock left by
// a killed process is taken over with a log line, and a stopped installation backs up.
// (A first start makes a PGlite database: seconds on an idle machine, longer on a loaded
// one, hence the generous deadlines.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { seedDataDir } from '../support/pglite-template.ts';
import { installationEnv, runCli, startCli, type CliProcess } from './cli-process.ts';
import { goneProcess } from '../support/gone-process.ts';

const dirs: string[] = [];
const running: CliProcess[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-owner-'));
  dirs.push(dir);
  return dir;
}

const envFor = (dir: string) =>
  installationEnv({
    METASERVER_DATA_DIR: dir,
    REDIS_URL: inject('redisUrl'),
    METASERVER_QUEUE_PREFIX: `owner-${process.pid}-${dirs.length}`,
  });

/** Every file under dir with its size and modification time: what a writer would change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const st = statSync(path);
        out[path] = `${st.size}:${st.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await p.exited;
  }
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('one owner per PGlite data directory', () => {
  it('a second serve, a migrate and a backup on a directory a serve holds are refused, naming the first, and write nothing', async () => {
    // The run's migrated PGlite database, copied: the refusals are the point, and the next
    // test starts on an empty directory (initdb and the migrations in the process).
    const dir = seedDataDir(dataDir());
    const first = startCli(['serve'], envFor(dir));
    running.push(first);
    await first.waitForLine('metaserver is serving on');
    const before = snapshot(join(dir, 'pg'));

    const backupFile = join(dir, 'refused-backup.tar.gz');
    for (const args of [['serve'], ['migrate'], ['backup', '--out', backupFile]]) {
      const command = args.join(' ');
      const second = await runCli(args, envFor(dir));
      expect(second.code, `${command}: ${second.stderr}`).not.toBe(0);
      expect(second.stderr).toMatch(
        new RegExp(
          `another metaserver \\(pid ${first.child.pid}, \`metaserver serve\`, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) uses the PGlite database in ${join(dir, 'pg')}; stop it first`,
        ),
      );
      expect(second.stderr).not.toContain('    at '); // a sentence, not a stack trace
      expect(second.stdout).not.toContain('using the embedded PGlite database');
    }
    expect(snapshot(join(dir, 'pg'))).toEqual(before);
    expect(existsSync(backupFile)).toBe(false);
    // The first still owns it.
    expect(readFileSync(join(dir, 'pg.lock'), 'utf8').split('\n')[0]).toBe(String(first.child.pid));
  }, 180_000);

  it('a lock left by a process that is gone is taken over, with a log line', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const dead = await goneProcess();
    writeFileSync(join(dir, 'pg.lock'), `${dead}\nmetaserver serve\n2026-01-01T00:00:00.000Z\n`);
    const result = await runCli(['migrate'], envFor(dir));
    expect(result.code, result.stderr).toBe(0);
    const takeover = result.stdout.split('\n').find((l) => l.includes('taking over the lock'));
    expect(takeover).toBeDefined();
    expect(JSON.parse(takeover!).msg).toContain(
      `the process that held it (pid ${dead}, \`metaserver serve\`, since 2026-01-01T00:00:00.000Z) is gone`,
    );
    // migrate released it on its way out.
    expect(() => statSync(join(dir, 'pg.lock'))).toThrow();
    // With no process serving it, `metaserver backup --out FILE` takes the lock and dumps the directory itself.
    const file = join(dir, 'stopped.tar.gz');
    const backup = await runCli(['backup', '--out', file], envFor(dir));
    expect(backup.code, backup.stderr).toBe(0);
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(existsSync(`${file}.partial`)).toBe(false);
  }, 180_000);
});
