import { describe, expect, it } from 'vitest';
import { CODE_LIMIT } from '../../src/uniprot/codec.ts';
import { KEY_BITS, scrambleCode } from '../../src/uniprot/keys.ts';
import { buildPrimaryTables, chooseBucketBits, hasKey, hasKeys, type PrimaryTables } from '../../src/uniprot/tables.ts';

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

describe('searching the buckets (hasKey and hasKeys)', () => {
  // 2^14 buckets (the fewest there can be), so each bucket spans 2^32 keys and the shapes
  // below can be laid out by hand.
  const SCALE = 2 ** 32;
  const BUCKETS = 2 ** 14;
  const LAST_KEY = 2 ** KEY_BITS - 1;
  const at = (bucket: number, rem: number): number => bucket * SCALE + rem;

  /** Keys in buckets of every shape: empty, one key at either edge, both edges, huge, a dense run, the last one. */
  function shapedKeys(): number[] {
    const random = generator(11);
    const keys: number[] = [];
    keys.push(at(1, 0)); // one key, at the bucket's start
    keys.push(at(2, SCALE - 1)); // one key, at the bucket's end
    keys.push(at(3, 0), at(3, SCALE - 1)); // both edges only
    keys.push(at(4, 2 ** 31)); // one key in the middle
    for (let i = 0; i < 5000; i++) keys.push(at(5, Math.floor(random() * SCALE))); // a very large bucket
    keys.push(at(5, 0), at(5, 1), at(5, SCALE - 2), at(5, SCALE - 1));
    for (let i = 0; i < 3000; i++) keys.push(at(6, 1_000_000 + i)); // a dense run: the interpolated place is far off
    for (let b = 7; b < BUCKETS - 2; b += 3) keys.push(at(b, Math.floor(random() * SCALE))); // small buckets; every third one filled
    keys.push(LAST_KEY, LAST_KEY - 5); // the last bucket ends with the largest key there can be
    return keys; // buckets 0 and BUCKETS - 2 stay empty
  }

  /** Every key, its neighbours, every bucket's first and last possible key, and some random keys. */
  function probesAround(keys: number[]): number[] {
    const random = generator(12);
    const probes: number[] = [-1, -LAST_KEY];
    for (const key of keys) for (const d of [-2, -1, 0, 1, 2]) if (key + d >= 0 && key + d <= LAST_KEY) probes.push(key + d);
    for (let b = 0; b < BUCKETS; b++) probes.push(at(b, 0), at(b, 1), at(b, SCALE - 2), at(b, SCALE - 1));
    for (let i = 0; i < 20_000; i++) probes.push(Math.floor(random() * 2 ** KEY_BITS));
    return probes;
  }

  function expectAnswers(tables: PrimaryTables, members: Set<number>, probes: number[]): void {
    const scale = 2 ** (KEY_BITS - tables.bucketBits);
    const wrong: string[] = [];
    for (const probe of probes) {
      const expected = probe >= 0 && members.has(probe);
      if (probe >= 0 && hasKey(tables, probe, scale) !== expected) wrong.push(`hasKey ${probe}`);
    }
    // In batches of awkward sizes, so groups end anywhere, into a larger out array.
    const keys = Float64Array.from(probes);
    for (const batch of [1, 7, 255, 256, 257, 1000, keys.length]) {
      const out = new Uint8Array(batch + 2);
      for (let from = 0; from < keys.length; from += batch) {
        const count = Math.min(batch, keys.length - from);
        out.fill(7);
        hasKeys(tables, keys.subarray(from, from + count), out, count, scale);
        for (let i = 0; i < count; i++) {
          const expected = keys[from + i] >= 0 && members.has(keys[from + i]) ? 1 : 0;
          if (out[i] !== expected) wrong.push(`hasKeys ${keys[from + i]} (batch ${batch})`);
        }
        if (out[count] !== 7) wrong.push(`hasKeys wrote past count (batch ${batch})`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  }

  it('answers right at bucket edges, in empty, tiny, huge and skewed buckets, and past the last key', () => {
    const keys = shapedKeys();
    const tables = buildPrimaryTables(Float64Array.from(keys), keys.length);
    expect(tables.bucketBits).toBe(14);
    const size = (b: number): number => tables.directory[b + 1] - tables.directory[b];
    expect([0, 1, 2, 3, 4].map(size)).toEqual([0, 1, 1, 2, 1]);
    expect(size(5)).toBeGreaterThan(5000);
    expect(size(BUCKETS - 2)).toBe(0);
    expect(size(BUCKETS - 1)).toBe(2);
    const members = new Set(keys);
    const probes = probesAround(keys);
    const probed = new Set(probes);
    expect([...members].every((key) => probed.has(key))).toBe(true);
    expectAnswers(tables, members, probes);
  });

  it('answers in a table whose first and last buckets are full and all others empty', () => {
    const keys = [0, 1, 2, SCALE - 1, LAST_KEY - 2, LAST_KEY];
    const tables = buildPrimaryTables(Float64Array.from(keys), keys.length);
    expectAnswers(tables, new Set(keys), probesAround(keys));
  });

  it('answers no to everything in an empty table', () => {
    const tables = buildPrimaryTables(new Float64Array(0), 0);
    expect(tables.remainders.length).toBe(0);
    expectAnswers(tables, new Set(), probesAround([0, 12345, LAST_KEY]));
  });

  it('answers in a table of one key', () => {
    for (const key of [0, SCALE, LAST_KEY]) {
      const tables = buildPrimaryTables(Float64Array.of(key), 1);
      expectAnswers(tables, new Set([key]), probesAround([key]));
    }
  });
});
