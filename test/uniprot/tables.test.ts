import { describe, expect, it } from 'vitest';
import { CODE_LIMIT } from '../../src/uniprot/codec.ts';
import { KEY_BITS, scrambleCode } from '../../src/uniprot/keys.ts';
import { buildPrimaryTables, chooseBucketBits, hasKey } from '../../src/uniprot/tables.ts';

/** A small deterministic generator, so failures can be replayed. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('primary tables', () => {
  it('chooses at least 14 bucket bits (32-bit remainders) and more for big sets', () => {
    expect(chooseBucketBits(0)).toBe(14);
    expect(chooseBucketBits(300)).toBe(14);
    expect(chooseBucketBits(1_000_000)).toBe(17);
    expect(chooseBucketBits(250_000_000)).toBe(25);
  });

  it('finds every member and no non-member of a 400k random set, clustered codes included', () => {
    const random = generator(7);
    const count = 400_000;
    const codes = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      // Half uniform, half in one dense run: what a real release (A0A…) looks like.
      codes[i] = i % 2 === 0 ? Math.floor(random() * CODE_LIMIT) : 2 ** 27 + i;
    }
    const keys = new Float64Array(count + 100);
    for (let i = 0; i < count; i++) keys[i] = scrambleCode(codes[i]);
    for (let i = 0; i < 100; i++) keys[count + i] = keys[i]; // duplicates
    const tables = buildPrimaryTables(keys, keys.length);
    expect(tables.bucketBits).toBe(16);
    expect(tables.duplicates).toBe(100 + (count - new Set(codes).size));
    expect(tables.directory[tables.directory.length - 1]).toBe(tables.remainders.length);
    const scale = 2 ** (KEY_BITS - tables.bucketBits);
    let missing = 0;
    for (const code of codes) if (!hasKey(tables, scrambleCode(code), scale)) missing++;
    expect(missing).toBe(0);
    const members = new Set(codes);
    let falseHits = 0;
    for (let i = 0; i < 100_000; i++) {
      const code = Math.floor(random() * CODE_LIMIT);
      if (!members.has(code) && hasKey(tables, scrambleCode(code), scale)) falseHits++;
    }
    expect(falseHits).toBe(0);
  });

  it('keeps buckets small even when the codes are one dense run', () => {
    const count = 100_000;
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) keys[i] = scrambleCode(2 ** 27 + i);
    const { directory } = buildPrimaryTables(keys, count);
    let largest = 0;
    for (let b = 0; b + 1 < directory.length; b++) largest = Math.max(largest, directory[b + 1] - directory[b]);
    expect(largest).toBeLessThan(40);
  });
});
