// `metaserver taxonomy build` names the release only as told (the taxdump holds no version,
// and a file's modification time is not a release), and refuses a dump file given in the
// wrong place, naming the columns it expected and what the file looks like instead —
// merged.dmp given as --delnodes would otherwise turn every merged id into a deleted one.
import { existsSync, readFileSync, utimesSync, copyFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTaxonomyCommand } from '../../../src/families/tx/command.ts';
import { loadTaxonomyIndex } from '../../../src/families/tx/taxonomy.ts';
import { TAXDUMP } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'metaserver-taxonomy-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NODES = join(TAXDUMP, 'nodes.dmp');
const MERGED = join(TAXDUMP, 'merged.dmp');
const DELNODES = join(TAXDUMP, 'delnodes.dmp');

async function build(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = await runTaxonomyCommand(['build', ...args], {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
  });
  return { code, ...out };
}

describe('the release name', () => {
  it('is required: without --release the build is refused as bad usage and writes nothing', async () => {
    const out = join(dir, 'unnamed.idx');
    const run = await build(['--nodes', NODES, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/required option '--release <name>' not specified/);
    expect(existsSync(out)).toBe(false);
    expect((await build(['--nodes', NODES, '--release', ' ', '--out', out])).stderr).toMatch(
      /--release is empty; name the taxdump release/,
    );
    expect((await build(['--nodes', NODES, '--release', 'R', '--date', 'June 2024', '--out', out])).stderr).toMatch(
      /--date June 2024 is not YYYY-MM-DD/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("is what was given, whatever the files' modification times: two builds of the same dump a year apart are the same file", async () => {
    const nodes = join(dir, 'nodes.dmp');
    copyFileSync(NODES, nodes);
    const first = join(dir, 'first.idx');
    const second = join(dir, 'second.idx');
    utimesSync(nodes, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    expect((await build(['--nodes', nodes, '--release', '2024-06-01', '--date', '2024-06-01', '--out', first])).code).toBe(0);
    utimesSync(nodes, new Date('2021-03-04T00:00:00Z'), new Date('2021-03-04T00:00:00Z'));
    const run = await build(['--nodes', nodes, '--release', '2024-06-01', '--date', '2024-06-01', '--out', second]);
    expect(run.stdout).toMatch(/: release 2024-06-01, 12 taxa/);
    expect(readFileSync(second).equals(readFileSync(first))).toBe(true);
    expect(loadTaxonomyIndex(second).release).toMatchObject({ name: '2024-06-01', date: '2024-06-01' });
    expect(JSON.stringify(loadTaxonomyIndex(second).release)).not.toMatch(/2020|2021/);
  });
});

describe('a dump file in the wrong place', () => {
  const refused = async (args: string[], expected: RegExp) => {
    const out = join(dir, `refused-${Math.random().toString(36).slice(2)}.idx`);
    const run = await build([...args, '--release', 'R', '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(expected);
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  };

  it("merged.dmp as --delnodes: refused, naming delnodes.dmp's one column and what the file looks like", async () => {
    await refused(
      ['--nodes', NODES, '--delnodes', MERGED],
      new RegExp(
        `error: ${MERGED.replace(/[.\\/]/g, '\\$&')} \\(given as --delnodes\\) is not delnodes\\.dmp: line 1 has 2 columns \\(3000001\\t\\|\\t10090\\t\\|\\); it looks like merged\\.dmp; delnodes\\.dmp has 1 column: tax_id`,
      ),
    );
  });

  it('delnodes.dmp as --merged, nodes.dmp as --merged, merged.dmp as --nodes: each refused with the columns expected', async () => {
    await refused(
      ['--nodes', NODES, '--merged', DELNODES],
      /\(given as --merged\) is not merged\.dmp: line 1 has 1 column \(3000100\t\|\); it looks like delnodes\.dmp; merged\.dmp has 2 columns: old_tax_id \| new_tax_id/,
    );
    await refused(
      ['--nodes', NODES, '--merged', NODES],
      /\(given as --merged\) is not merged\.dmp: line 1 has 13 columns .*it looks like nodes\.dmp; merged\.dmp has 2 columns/,
    );
    await refused(
      ['--nodes', MERGED],
      /\(given as --nodes\) is not nodes\.dmp: line 1 has 2 columns .*; nodes\.dmp has 13 columns \(18 in new_taxdump\): tax_id \| parent tax_id \| rank/,
    );
  });

  it('names.dmp as --nodes: refused as what it looks like; a header line before the first taxon is skipped, not taken for the kind', async () => {
    const names = join(dir, 'names.dmp');
    writeFileSync(names, '1\t|\tall\t|\t\t|\tsynonym\t|\n1\t|\troot\t|\t\t|\tscientific name\t|\n');
    await refused(['--nodes', names], /line 1 has 4 columns .*it looks like names\.dmp; nodes\.dmp has 13 columns/);
    const headed = join(dir, 'headed-delnodes.dmp');
    writeFileSync(headed, `tax_id\t|\tnote\t|\n${readFileSync(DELNODES, 'utf8')}`);
    const run = await build(['--nodes', NODES, '--delnodes', headed, '--release', 'R', '--out', join(dir, 'headed.idx')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/2 deleted ids/);
  });
});
