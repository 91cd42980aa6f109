import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runUniprotCommand } from '../../src/cli/uniprot.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uniprot');
const dir = mkdtempSync(join(tmpdir(), 'uniprot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs the command, capturing what it prints. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const code = await runUniprotCommand(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('metaserver uniprot', () => {
  const index = join(dir, 'test.idx');

  it('builds an index and reports what it wrote', async () => {
    const { code, stdout, stderr } = await run([
      'build',
      '--primaries',
      join(FIXTURES, 'primaries.txt'),
      '--secondary',
      join(FIXTURES, 'sec_ac.txt'),
      '--release',
      'TEST_2024',
      '--date',
      '2024-01-01',
      '--out',
      index,
    ]);
    expect(code).toBe(0);
    expect(existsSync(index)).toBe(true);
    expect(stdout).toMatch(/release TEST_2024, 300 primary accessions .* 6 secondary accessions/);
    expect(stderr).toMatch(/1 secondary accession\(s\) dropped/);
  });

  it('looks accessions up: primary, secondary with its primaries, unknown, invalid', async () => {
    const { code, stdout, stderr } = await run(['lookup', '--index', index, 'P12345', 'Q00001', 'P99999', 'Q9ZFS6-2']);
    expect(stdout.split('\n')).toEqual([
      'P12345\tprimary',
      'Q00001\tsecondary\tP12345',
      'P99999\tunknown',
      expect.stringMatching(/^Q9ZFS6-2\tinvalid\t.*isoform/),
      '',
    ]);
    expect(stderr).toContain('UniProt release TEST_2024 of 2024-01-01');
    expect(code).toBe(1);
    expect((await run(['lookup', '--index', index, 'P12345'])).code).toBe(0);
  });

  it('answers usage errors with exit code 2 and a message', async () => {
    const missing = await run(['build', '--primaries', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option/);
    const badDate = await run(['build', '--primaries', 'x', '--release', 'R', '--date', '01/02/2024', '--out', join(dir, 'x')]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toMatch(/not YYYY-MM-DD/);
  });

  it('reports a missing input file as a failure', async () => {
    const result = await run(['build', '--primaries', join(dir, 'nope.txt'), '--release', 'R', '--out', join(dir, 'y')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*nope\.txt/m);
  });
});
