import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/uniprot/build.ts';
import { CODE_LIMIT, decodeAccession, encodeAccession, SIX_CHARACTER_CODES, TEN_BASE } from '../../src/uniprot/codec.ts';
import { loadUniprotIndex, lookupAll, type AccessionLookup, type LookupResult } from '../../src/uniprot/index.ts';
import { KEY_BITS } from '../../src/uniprot/keys.ts';
import { buildPrimaryTables, hasKey, hasKeys } from '../../src/uniprot/tables.ts';
import { mulberry32 } from '../../src/shared/prng.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uniprot');
const dir = mkdtempSync(join(tmpdir(), 'uniprot-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function randomCode(random: () => number): number {
  if (random() < 0.3) return Math.floor(random() * SIX_CHARACTER_CODES);
  return Math.min(CODE_LIMIT - 1, TEN_BASE + Math.floor((random() + random() / 2 ** 32) * (CODE_LIMIT - TEN_BASE)));
}

// The encoder as it was before the table-driven rewrite, kept as the reference.
const OLD_BLOCK = 26 * 36 * 36 * 10;
const OLD_OPQ = 3 * 10 * 36 * 36 * 36 * 10;
const oldAlnum = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : -1);
const oldDigit = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : -1);
const oldFirst = (c: number): number => (c >= 65 && c <= 78 ? c - 65 : c >= 82 && c <= 90 ? c - 82 + 14 : -1);
function oldBlock(s: string, i: number): number {
  const l = s.charCodeAt(i);
  if (l < 65 || l > 90) return -1;
  const x = oldAlnum(s.charCodeAt(i + 1));
  const y = oldAlnum(s.charCodeAt(i + 2));
  const d = oldDigit(s.charCodeAt(i + 3));
  if (x < 0 || y < 0 || d < 0) return -1;
  return (((l - 65) * 36 + x) * 36 + y) * 10 + d;
}
function oldEncode(s: string): number {
  const n = s.length;
  if (n !== 6 && n !== 10) return -1;
  const c0 = s.charCodeAt(0);
  const d1 = oldDigit(s.charCodeAt(1));
  if (d1 < 0) return -1;
  if (c0 === 79 || c0 === 80 || c0 === 81) {
    if (n !== 6) return -1;
    const x2 = oldAlnum(s.charCodeAt(2));
    const x3 = oldAlnum(s.charCodeAt(3));
    const x4 = oldAlnum(s.charCodeAt(4));
    const d5 = oldDigit(s.charCodeAt(5));
    if (x2 < 0 || x3 < 0 || x4 < 0 || d5 < 0) return -1;
    return (((((c0 - 79) * 10 + d1) * 36 + x2) * 36 + x3) * 36 + x4) * 10 + d5;
  }
  const f = oldFirst(c0);
  if (f < 0) return -1;
  const head = f * 10 + d1;
  const b1 = oldBlock(s, 2);
  if (b1 < 0) return -1;
  if (n === 6) return OLD_OPQ + head * OLD_BLOCK + b1;
  const b2 = oldBlock(s, 6);
  if (b2 < 0) return -1;
  return TEN_BASE + (head * OLD_BLOCK + b1) * OLD_BLOCK + b2;
}

describe('encodeAccession', () => {
  it('equals the previous encoder on a sweep of accessions and of every one-character change to them', () => {
    const random = mulberry32(7);
    const swaps = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZaz-_ .:/@[`{\u007f\u0080\u00e9\u0130\u2013\ud83d';
    const failures: string[] = [];
    let checked = 0;
    const check = (s: string): void => {
      checked++;
      if (encodeAccession(s) !== oldEncode(s)) failures.push(JSON.stringify(s));
    };
    for (let k = 0; k < 3000; k++) {
      const acc = decodeAccession(k % 3 === 0 ? Math.floor(random() * SIX_CHARACTER_CODES) : randomCode(random));
      check(acc);
      for (let i = 0; i < acc.length; i++) for (const c of swaps) check(acc.slice(0, i) + c + acc.slice(i + 1));
      check(acc.slice(1));
      check(acc + 'A');
      check(` ${acc}`);
      check(acc.toLowerCase());
    }
    for (const s of ['', 'P', 'P1234', 'P123456', 'A0A023GPI', 'A0A023GPI89', 'O12345ABC1', 'P12345A001', 'Z9ZZZ9ZZZ9', 'O00000']) check(s);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(1_000_000);
  });
});

describe('batched lookups', () => {
  it.each([
    ['spread over the key space (a few per bucket)', 2 ** KEY_BITS],
    ['crowded into 64 buckets (thousands per bucket)', 64 * 2 ** 32],
  ])('hasKeys answers as hasKey, keys %s, including duplicates and negative keys', (_, range) => {
    const random = mulberry32(range % 1000);
    const count = 300_000;
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) keys[i] = i % 10 === 9 ? keys[i - 5] : Math.floor((random() + random() / 2 ** 32) * range);
    const tables = buildPrimaryTables(keys, count);
    expect(tables.duplicates).toBeGreaterThanOrEqual(count / 10);
    const scale = 2 ** (KEY_BITS - tables.bucketBits);
    for (let b = 0; b < 2 ** tables.bucketBits; b++) {
      for (let i = tables.directory[b] + 1; i < tables.directory[b + 1]; i++) {
        if (!(tables.remainders[i - 1] < tables.remainders[i])) throw new Error(`bucket ${b} is not sorted at ${i}`);
      }
    }
    for (let i = 0; i < count; i += 7) expect(hasKey(tables, keys[i], scale)).toBe(true);
    const probes = new Float64Array(30_000);
    for (let i = 0; i < probes.length; i++) {
      const r = random();
      const near = keys[Math.floor(random() * count)];
      probes[i] = r < 0.4 ? near : r < 0.45 ? -1 : r < 0.7 ? Math.max(0, near + (r < 0.6 ? 1 : -1)) : Math.floor(random() * range);
    }
    const out = new Uint8Array(probes.length).fill(7);
    hasKeys(tables, probes, out, probes.length, scale);
    let hits = 0;
    for (let i = 0; i < probes.length; i++) {
      const expected = probes[i] >= 0 && hasKey(tables, probes[i], scale) ? 1 : 0;
      if (out[i] !== expected) throw new Error(`probe ${i}: ${probes[i]} answered ${out[i]}, expected ${expected}`);
      hits += expected;
    }
    expect(hits).toBeGreaterThan(11_000);
    expect(hits).toBeLessThan(25_000);
  });

  it('lookupMany answers as lookup on random hits, misses, secondaries and malformed strings', async () => {
    const path = join(dir, 'index.bin');
    await buildIndex({
      primaries: join(FIXTURES, 'primaries.txt'),
      secondary: join(FIXTURES, 'sec_ac.txt'),
      out: path,
      release: { name: 'TEST_2024' },
    });
    const index = loadUniprotIndex(path);
    const primaries = readFileSync(join(FIXTURES, 'primaries.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    const secondaries = ['Q00001', 'A0A000AAA1', 'P00001', 'O00002'];
    const malformed = ['', 'p12345', 'Q9ZFS6-2', 'P1234', ' P12345', 'P12345 ', 'A0A023GPI8X', 'É12345'];
    const random = mulberry32(11);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    // Longer than the internal chunk, so results are placed across chunk boundaries.
    const accs: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const r = random();
      accs.push(
        r < 0.4 ? pick(primaries) : r < 0.55 ? pick(secondaries) : r < 0.65 ? pick(malformed) : decodeAccession(randomCode(random)),
      );
    }
    const batched = index.lookupMany(accs);
    expect(batched).toHaveLength(accs.length);
    const single: LookupResult[] = accs.map((acc) => index.lookup(acc));
    expect(batched).toEqual(single);
    const statuses = new Set(batched.map((r) => r.status));
    expect([...statuses].sort()).toEqual(['primary', 'secondary', 'unknown']);
    expect(index.lookupMany([])).toEqual([]);

    const codes = new Float64Array(accs.map(encodeAccession));
    const out = new Uint8Array(codes.length + 3).fill(9);
    index.hasPrimaryCodes(codes, out, codes.length - 5);
    for (let i = 0; i < codes.length - 5; i++) expect(out[i]).toBe(codes[i] >= 0 && index.hasPrimaryCode(codes[i]) ? 1 : 0);
    expect([...out.subarray(codes.length - 5)]).toEqual([9, 9, 9, 9, 9, 9, 9, 9]);
    expect(() => index.hasPrimaryCodes(codes, new Uint8Array(3))).toThrow(RangeError);
  });

  it('lookupAll falls back to lookup for a release without lookupMany', () => {
    const fake: AccessionLookup = {
      release: { name: 'FAKE', primaries: 1, secondaries: 0 },
      lookup: (acc) => (acc === 'P12345' ? { status: 'primary' } : { status: 'unknown' }),
    };
    expect(lookupAll(fake, ['P12345', 'Q99999'])).toEqual([{ status: 'primary' }, { status: 'unknown' }]);
  });
});
