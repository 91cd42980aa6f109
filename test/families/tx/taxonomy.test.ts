// The NCBI Taxonomy release index: built from a taxdump in NCBI's own layout (fields
// separated by TAB|TAB, lines ending TAB|; nodes.dmp with its 13 columns), gzip or not,
// through `metaserver taxonomy build`, and looked up through `metaserver taxonomy lookup`.
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTaxonomyIndex } from '../../../src/families/tx/build.ts';
import { runTaxonomyCommand } from '../../../src/families/tx/command.ts';
import { loadTaxonomyIndex } from '../../../src/families/tx/taxonomy.ts';
import { buildFixtureIndex, RELEASE, TAXDUMP, type BuiltIndex } from './helpers.ts';
import { captured } from '../../support/captured-io.ts';

let built: BuiltIndex;
beforeAll(async () => {
  built = await buildFixtureIndex();
});
afterAll(() => built.remove());

describe('building the index from nodes.dmp, merged.dmp and delnodes.dmp', () => {
  it('holds the current taxa, the merges resolved to current taxa, and the deletions', () => {
    const { index } = built;
    // nodes.dmp: 12 taxa; merged.dmp: 4 lines, of which 3000003 leads nowhere current and
    // 9606 is itself current → 2 merges; delnodes.dmp: 3 ids, 7227 current → 2 deletions.
    expect(index.release).toMatchObject({ name: RELEASE, taxa: 12, merged: 2, deleted: 2 });
    expect(index.lookup(9606)).toEqual({ status: 'current' });
    expect(index.lookup(1)).toEqual({ status: 'current' });
    expect(index.lookup(3000001)).toEqual({ status: 'merged', into: 10090 });
    // 3000002 → 3000001 → 10090: the chain is followed when building.
    expect(index.lookup(3000002)).toEqual({ status: 'merged', into: 10090 });
    expect(index.lookup(3000003)).toEqual({ status: 'unknown' });
    expect(index.lookup(3000100)).toEqual({ status: 'deleted' });
    expect(index.lookup(7227)).toEqual({ status: 'current' });
    expect(index.lookup(42424242)).toEqual({ status: 'unknown' });
  });

  it('reports what it left out and skipped, and names the release as told, with its date when given', async () => {
    const summary = await buildTaxonomyIndex({
      nodes: join(TAXDUMP, 'nodes.dmp'),
      merged: join(TAXDUMP, 'merged.dmp'),
      delnodes: join(TAXDUMP, 'delnodes.dmp'),
      out: join(built.dir, 'default-name.idx'),
      release: 'taxdmp_2024-06-01',
      date: '2024-06-01',
    });
    expect(summary).toMatchObject({ taxa: 12, merged: 2, deleted: 2, mergesLeftOut: 2, deletionsLeftOut: 1 });
    expect(summary.skipped.count).toBe(1);
    expect(summary.skipped.examples[0]).toMatch(/delnodes\.dmp line 4: not a taxon/);
    expect(summary.release).toEqual({ name: 'taxdmp_2024-06-01', date: '2024-06-01' });
    expect(loadTaxonomyIndex(join(built.dir, 'default-name.idx')).release).toMatchObject({ name: 'taxdmp_2024-06-01', date: '2024-06-01' });
  });

  it('reads gzip-compressed dumps (told by their first bytes, whatever the name) and nodes.dmp alone', async () => {
    const gz = join(built.dir, 'nodes.dmp');
    writeFileSync(gz, gzipSync(readFileSync(join(TAXDUMP, 'nodes.dmp'))));
    const out = join(built.dir, 'nodes-only.idx');
    const summary = await buildTaxonomyIndex({ nodes: gz, out, release: 'gz' });
    expect(summary).toMatchObject({ taxa: 12, merged: 0, deleted: 0 });
    expect(loadTaxonomyIndex(out).lookup(3000001)).toEqual({ status: 'unknown' });
  });

  it('refuses a file that is not an index, saying how to make one', () => {
    const bogus = join(built.dir, 'bogus.idx');
    copyFileSync(join(TAXDUMP, 'nodes.dmp'), bogus);
    expect(() => loadTaxonomyIndex(bogus)).toThrow(
      /is not a metaserver NCBI Taxonomy index \(bad magic\); rebuild it with "metaserver taxonomy build"/,
    );
  });
});

describe('metaserver taxonomy', () => {
  it('build writes the index and says what it holds; lookup answers current, merged, deleted, unknown, invalid', async () => {
    const out = join(built.dir, 'cli.idx');
    const build = captured();
    const code = await runTaxonomyCommand(
      [
        'build',
        '--nodes',
        join(TAXDUMP, 'nodes.dmp'),
        '--merged',
        join(TAXDUMP, 'merged.dmp'),
        '--delnodes',
        join(TAXDUMP, 'delnodes.dmp'),
        '--release',
        '2024-05',
        '--out',
        out,
      ],
      build,
    );
    expect(code).toBe(0);
    expect(build.out).toMatch(
      new RegExp(`^wrote ${out.replace(/[.\\/]/g, '\\$&')}: release 2024-05, 12 taxa, 2 merged ids, 2 deleted ids`),
    );
    expect(build.err).toMatch(/1 line\(s\) skipped/);
    expect(build.err).toMatch(/2 merge\(s\) left out/);
    expect(build.err).toMatch(/1 deleted id\(s\) left out/);

    const found = captured();
    expect(await runTaxonomyCommand(['lookup', '--index', out, '9606', '3000002', '3000100', '42', 'x9'], found)).toBe(1);
    expect(found.out).toBe(
      '9606\tcurrent\n3000002\tmerged\t10090\n3000100\tdeleted\n42\tunknown\nx9\tinvalid\tnot a taxon id (a positive integer)\n',
    );
    expect(found.err).toBe('(NCBI Taxonomy release 2024-05)\n');
    expect(await runTaxonomyCommand(['lookup', '--index', out, '9606', '562'], captured())).toBe(0);
  });

  it('is a command of the metaserver program, brought by the TX family', async () => {
    const bin = new URL('../../../bin/metaserver.js', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'taxonomy', 'lookup', '--index', built.path, '10090'], {
      env: { ...process.env, METASERVER_NO_BUNDLE: '1' },
    });
    expect(stdout).toBe('10090\tcurrent\n');
    const help = await promisify(execFile)(process.execPath, [bin, '--help'], { env: { ...process.env, METASERVER_NO_BUNDLE: '1' } });
    expect(help.stdout).toMatch(/taxonomy \[args\.\.\.\] +build or query an NCBI Taxonomy release index for TX/);
  });

  it('fails with a message on a nodes.dmp without taxa, and on bad usage', async () => {
    const empty = join(built.dir, 'empty.dmp');
    writeFileSync(empty, 'tax_id\t|\tparent\t|\n');
    const run = captured();
    expect(await runTaxonomyCommand(['build', '--nodes', empty, '--release', 'R', '--out', join(built.dir, 'empty.idx')], run)).toBe(1);
    expect(run.err).toMatch(/error: no taxon found in .*empty\.dmp/);
    expect(await runTaxonomyCommand(['build', '--out', join(built.dir, 'x.idx')], captured())).toBe(2);
    const missing = captured();
    expect(
      await runTaxonomyCommand(
        ['build', '--nodes', join(built.dir, 'missing.dmp'), '--release', 'R', '--out', join(built.dir, 'x.idx')],
        missing,
      ),
    ).toBe(1);
    expect(missing.err).toMatch(/error: .*missing\.dmp/);
  });
});
