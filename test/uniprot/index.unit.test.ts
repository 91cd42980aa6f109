import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex, buildSecondaryTables } from '../../src/uniprot/build.ts';
import { loadUniprotIndex } from '../../src/uniprot/index.ts';
import { decodeAccession, encodeAccession } from '../../src/uniprot/codec.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uniprot');
const PRIMARIES = join(FIXTURES, 'primaries.txt');
const FASTA = join(FIXTURES, 'primaries.fasta');
const SEC_AC = join(FIXTURES, 'sec_ac.txt');
const dir = mkdtempSync(join(tmpdir(), 'uniprot-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixtureAccessions = readFileSync(PRIMARIES, 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));

let n = 0;
const out = (): string => join(dir, `index-${n++}.bin`);

describe('building and loading an index', () => {
  it('builds from a plain list with sec_ac.txt and round-trips write → load → lookup', async () => {
    const path = out();
    const summary = await buildIndex({
      primaries: PRIMARIES,
      secondary: SEC_AC,
      out: path,
      release: { name: 'TEST_2024', date: '2024-01-01' },
    });
    expect(summary).toMatchObject({ primaries: 300, duplicatePrimaries: 0, secondaries: 6, orphanSecondaries: 1 });
    expect(summary.skippedPrimaryLines.count).toBe(0);
    const index = loadUniprotIndex(path);
    expect(index.release).toEqual({ name: 'TEST_2024', date: '2024-01-01', primaries: 300, secondaries: 6 });
    const wrong = fixtureAccessions.filter((acc) => index.lookup(acc).status !== 'primary');
    expect(wrong).toEqual([]);
    expect(fixtureAccessions).toHaveLength(300);
  });

  it('maps secondaries, including one-to-many, and prefers a primary over a secondary use', async () => {
    const path = out();
    await buildIndex({ primaries: PRIMARIES, secondary: SEC_AC, out: path, release: { name: 'TEST_2024' } });
    const index = loadUniprotIndex(path);
    expect(index.lookup('Q00001')).toEqual({ status: 'secondary', primaries: ['P12345'] });
    expect(index.lookup('A0A000AAA1')).toEqual({ status: 'secondary', primaries: ['A0A023GPI8'] });
    const many = index.lookup('P00001');
    expect(many.status).toBe('secondary');
    expect(many.status === 'secondary' && [...many.primaries].sort()).toEqual(['P68871', 'P69905']);
    expect(index.lookup('P38398')).toEqual({ status: 'primary' });
    // O00002's only primary (Z9Z9Z9) is not in the release: it was dropped at build time.
    expect(index.lookup('O00002')).toEqual({ status: 'unknown' });
    expect(index.lookup('P99999')).toEqual({ status: 'unknown' });
    expect(index.lookup('Q9ZFS6-2')).toEqual({ status: 'unknown' });
    expect(index.lookup('p12345')).toEqual({ status: 'unknown' });
  });

  it('answers unknown for accessions that are not in the release', async () => {
    const path = out();
    await buildIndex({ primaries: PRIMARIES, out: path, release: { name: 'R' } });
    const index = loadUniprotIndex(path);
    const members = new Set(fixtureAccessions);
    let checked = 0;
    for (let code = 0; checked < 5000; code += 17_011) {
      const acc = decodeAccession(code);
      if (members.has(acc)) continue;
      expect(index.lookup(acc).status).toBe('unknown');
      checked++;
    }
    expect(index.release.secondaries).toBe(0);
  });

  it('builds from FASTA headers (sp and tr), skipping sequence lines', async () => {
    const path = out();
    const summary = await buildIndex({ primaries: FASTA, out: path, release: { name: 'F' } });
    expect(summary.primaries).toBe(5);
    expect(summary.skippedPrimaryLines.count).toBe(0);
    const index = loadUniprotIndex(path);
    for (const acc of ['P12345', 'P69905', 'A0A023GPI8', 'Q1AAA9', 'O12345']) expect(index.lookup(acc).status).toBe('primary');
    expect(index.lookup('Q9ZFS6').status).toBe('unknown');
  });

  it('builds from gzip input, detected by its magic bytes whatever the file name', async () => {
    const gz = join(dir, 'primaries-without-gz-suffix.txt');
    writeFileSync(gz, gzipSync(readFileSync(PRIMARIES)));
    const fastaGz = join(dir, 'p.fasta.gz');
    writeFileSync(fastaGz, gzipSync(readFileSync(FASTA)));
    const a = out();
    const b = out();
    expect((await buildIndex({ primaries: gz, out: a, release: { name: 'G' } })).primaries).toBe(300);
    expect((await buildIndex({ primaries: fastaGz, out: b, release: { name: 'G' } })).primaries).toBe(5);
    expect(loadUniprotIndex(a).lookup('A0A023GPI8').status).toBe('primary');
  });

  it('fails on a truncated gzip file instead of building a partial index', async () => {
    const gz = join(dir, 'truncated.gz');
    const whole = gzipSync(Buffer.from(fixtureAccessions.join('\n').repeat(50)));
    writeFileSync(gz, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(buildIndex({ primaries: gz, out: out(), release: { name: 'T' } })).rejects.toThrow(/unexpected end of file/);
  });

  it('removes duplicates, counts and quotes bad lines, accepts CRLF and comments', async () => {
    const list = join(dir, 'messy.txt');
    writeFileSync(list, '# comment\r\nP12345\r\nP12345 extra words\r\n\r\nnot-an-accession\r\nQ9ZFS6-2\r\nA0A023GPI8\r\n');
    const path = out();
    const summary = await buildIndex({ primaries: list, out: path, release: { name: 'M' } });
    expect(summary.primaries).toBe(2);
    expect(summary.duplicatePrimaries).toBe(1);
    expect(summary.skippedPrimaryLines).toEqual({ count: 2, examples: ['line 5: not-an-accession', 'line 6: Q9ZFS6-2'] });
  });

  it('refuses a sec_ac.txt without its table header', async () => {
    const bad = join(dir, 'sec-bad.txt');
    writeFileSync(bad, 'Q00001 P12345\n');
    await expect(buildIndex({ primaries: PRIMARIES, secondary: bad, out: out(), release: { name: 'X' } })).rejects.toThrow(
      /no "Secondary AC {2}Primary AC" line found/,
    );
  });

  it('refuses files that are not indexes, or are truncated', async () => {
    const notIndex = join(dir, 'not-index.bin');
    writeFileSync(notIndex, 'hello world, this is not an index');
    expect(() => loadUniprotIndex(notIndex)).toThrow(/not a metaserver UniProt index.*rebuild it/);
    const path = out();
    await buildIndex({ primaries: PRIMARIES, out: path, release: { name: 'R' } });
    const truncated = join(dir, 'truncated.bin');
    writeFileSync(truncated, readFileSync(path).subarray(0, 2000));
    expect(() => loadUniprotIndex(truncated)).toThrow(/truncated/);
  });

  it('can load into a SharedArrayBuffer for worker threads', async () => {
    const path = out();
    await buildIndex({ primaries: PRIMARIES, out: path, release: { name: 'S' } });
    expect(loadUniprotIndex(path, { shared: true }).lookup('P12345').status).toBe('primary');
  });
});

describe('buildSecondaryTables', () => {
  it('groups by secondary, removes repeated pairs and drops secondaries whose primaries are all absent', () => {
    const code = encodeAccession;
    const secondaries = Float64Array.from([code('Q00001'), code('P00001'), code('Q00001'), code('P00001'), code('O00002')]);
    const primaries = Float64Array.from([code('P12345'), code('P69905'), code('P12345'), code('P68871'), code('Z9Z9Z9')]);
    const tables = buildSecondaryTables(secondaries, primaries, (c) => c !== code('Z9Z9Z9'));
    expect(tables.orphans).toBe(1);
    expect(Array.from(tables.codes, decodeAccession)).toEqual(['P00001', 'Q00001']);
    expect(Array.from(tables.starts)).toEqual([0, 2, 3]);
    // Each secondary's primaries in code order, secondaries in code order.
    expect(Array.from(tables.targets, decodeAccession)).toEqual(['P68871', 'P69905', 'P12345']);
  });
});
