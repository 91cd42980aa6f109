// The in-memory form of an index, shared by the builder, the file format and the lookup:
// primaries as a bucket directory plus sorted 32-bit remainders (about 4.5 bytes per
// accession), secondaries as sorted codes pointing into a list of primary codes.

import { KEY_BITS } from './keys.ts';

export interface PrimaryTables {
  /** Keys are split into 2^bucketBits buckets by their high bits. */
  bucketBits: number;
  /** directory[b] .. directory[b+1] is bucket b's range in `remainders`. */
  directory: Uint32Array;
  /** Low (KEY_BITS - bucketBits) bits of each key, sorted within each bucket. */
  remainders: Uint32Array;
}

export interface SecondaryTables {
  /** Sorted, distinct codes of secondary accessions. */
  codes: Float64Array;
  /** targets[starts[i] .. starts[i+1]) are the primary codes of codes[i]. */
  starts: Uint32Array;
  targets: Float64Array;
}

/** Aim for 4–8 keys per bucket: one cache line to search after the directory (measured: 16 per bucket was slower, 4 no faster), for ~0.5–1 byte of directory per key. */
const KEYS_PER_BUCKET = 8;
/** Remainders are 32-bit, so at least KEY_BITS - 32 bits must go to the bucket number. */
const MIN_BUCKET_BITS = KEY_BITS - 32;

export function chooseBucketBits(count: number): number {
  const wanted = Math.ceil(Math.log2(Math.max(1, count / KEYS_PER_BUCKET)));
  return Math.min(31, Math.max(MIN_BUCKET_BITS, wanted));
}

/**
 * Builds the primary tables from `count` scrambled keys (any order, duplicates allowed).
 * Linear time: a counting pass, a scatter pass, then an insertion sort of each tiny
 * bucket, which beats sorting hundreds of millions of doubles.
 */
export function buildPrimaryTables(keys: Float64Array, count: number): PrimaryTables & { duplicates: number } {
  const bucketBits = chooseBucketBits(count);
  const buckets = 2 ** bucketBits;
  const scale = 2 ** (KEY_BITS - bucketBits);
  const next = new Uint32Array(buckets + 1);
  for (let i = 0; i < count; i++) next[Math.floor(keys[i] / scale) + 1]++;
  for (let b = 0; b < buckets; b++) next[b + 1] += next[b];
  const starts = next.slice();
  const remainders = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    const b = Math.floor(key / scale);
    remainders[next[b]++] = key - b * scale;
  }
  // Sort each bucket and drop duplicates, compacting towards the front.
  const directory = new Uint32Array(buckets + 1);
  let write = 0;
  for (let b = 0; b < buckets; b++) {
    const from = starts[b];
    const to = starts[b + 1];
    directory[b] = write;
    for (let i = from + 1; i < to; i++) {
      const v = remainders[i];
      let j = i - 1;
      while (j >= from && remainders[j] > v) {
        remainders[j + 1] = remainders[j];
        j--;
      }
      remainders[j + 1] = v;
    }
    for (let i = from; i < to; i++) {
      if (i > from && remainders[i] === remainders[i - 1]) continue;
      remainders[write++] = remainders[i];
    }
  }
  directory[buckets] = write;
  const compact = write === count ? remainders : remainders.slice(0, write);
  return { bucketBits, directory, remainders: compact, duplicates: count - write };
}

/** Whether a scrambled key is among the primaries. */
export function hasKey(tables: PrimaryTables, key: number, scale: number): boolean {
  const b = Math.floor(key / scale);
  const rem = key - b * scale;
  const rems = tables.remainders;
  let lo = tables.directory[b];
  let hi = tables.directory[b + 1];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = rems[mid];
    if (v === rem) return true;
    if (v < rem) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** Index of `code` in a sorted Float64Array, or -1. */
export function findSorted(sorted: Float64Array, code: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === code) return mid;
    if (v < code) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
