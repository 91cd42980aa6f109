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
    if (to - from > 16) remainders.subarray(from, to).sort();
    else {
      for (let i = from + 1; i < to; i++) {
        const v = remainders[i];
        let j = i - 1;
        while (j >= from && remainders[j] > v) {
          remainders[j + 1] = remainders[j];
          j--;
        }
        remainders[j + 1] = v;
      }
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

/**
 * Where to start looking for `rem` in remainders[lo, hi): keys are spread evenly, so a
 * remainder's place in its bucket is about its fraction of the bucket's range.
 */
function guess(lo: number, hi: number, rem: number, scale: number): number {
  return lo + Math.floor(((hi - lo) * rem) / scale);
}

/** Whether rem is in the sorted remainders[lo, hi), searching outwards from `at` (lo ≤ at < hi). */
function scanFrom(rems: Uint32Array, lo: number, hi: number, at: number, rem: number): boolean {
  let i = at;
  if (rems[i] < rem) {
    do i++;
    while (i < hi && rems[i] < rem);
    return i < hi && rems[i] === rem;
  }
  while (i > lo && rems[i - 1] >= rem) i--;
  return rems[i] === rem;
}

/** Whether a scrambled key is among the primaries. */
export function hasKey(tables: PrimaryTables, key: number, scale: number): boolean {
  const b = Math.floor(key / scale);
  const rem = key - b * scale;
  const lo = tables.directory[b];
  const hi = tables.directory[b + 1];
  if (lo === hi) return false;
  return scanFrom(tables.remainders, lo, hi, guess(lo, hi, rem, scale), rem);
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

/**
 * How many keys `hasKeys` works on at once. Each pass over a group issues independent
 * loads at random places, which the out-of-order core overlaps: the latency of the cache
 * and TLB misses is paid about once per pass instead of once per key. A group's
 * directory entries and touched remainders (~2 cache lines per key) stay in L2 until the
 * next pass uses them. Measured at 10M accessions: 8 is slower; 32, 64 and 1024 are the
 * same within the noise of a shared machine.
 */
const GROUP = 64;
const groupBuckets = new Int32Array(GROUP);
const groupRems = new Float64Array(GROUP);
const groupLo = new Uint32Array(GROUP);
const groupHi = new Uint32Array(GROUP);
const groupAt = new Int32Array(GROUP);
/** Keeps the loads of the touching step from being optimised away. */
let sink = 0;

/**
 * Batched `hasKey`: out[i] = 1 when keys[i] is among the primaries, else 0, for i < count.
 * Negative keys (not an accession) answer 0. Works in groups: bucket numbers first, then
 * all directory entries of the group, then one touch of every bucket's remainders, then
 * the searches, which by then mostly hit the cache.
 */
export function hasKeys(tables: PrimaryTables, keys: Float64Array, out: Uint8Array, count: number, scale: number): void {
  const dir = tables.directory;
  const rems = tables.remainders;
  const buckets = groupBuckets;
  const wanted = groupRems;
  const los = groupLo;
  const his = groupHi;
  const ats = groupAt;
  let touched = 0;
  for (let start = 0; start < count; start += GROUP) {
    const size = Math.min(GROUP, count - start);
    for (let j = 0; j < size; j++) {
      const key = keys[start + j];
      // A negative key goes to bucket 0 with a remainder no bucket holds.
      const b = key < 0 ? 0 : Math.floor(key / scale);
      buckets[j] = b;
      wanted[j] = key < 0 ? -1 : key - b * scale;
    }
    for (let j = 0; j < size; j++) {
      const b = buckets[j];
      los[j] = dir[b];
      his[j] = dir[b + 1];
    }
    for (let j = 0; j < size; j++) {
      // The guessed place in the bucket: usually the cache line the search ends in.
      const lo = los[j];
      const hi = his[j];
      const rem = wanted[j];
      const at = lo === hi || rem < 0 ? -1 : guess(lo, hi, rem, scale);
      ats[j] = at;
      if (at >= 0) touched = (touched + rems[at]) | 0;
    }
    for (let j = 0; j < size; j++) {
      const at = ats[j];
      out[start + j] = at >= 0 && scanFrom(rems, los[j], his[j], at, wanted[j]) ? 1 : 0;
    }
  }
  sink ^= touched;
}

