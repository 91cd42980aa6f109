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

/**
 * Aim for 4–8 keys per bucket: one cache line to search after the directory (measured: 16
 * per bucket was slower, 4 no faster), for ~0.5–1 byte of directory per key. Coarser
 * buckets make a directory that stays in cache but searches that often need a second,
 * dependent line of remainders: with `hasKeys` as it is, 64 and 256 keys per bucket gave
 * 7.5 and 6.7M batched hits/s at 226M accessions (16 and 4 MiB directories) against 8.5M
 * at 8 per bucket (128 MiB), and 7.8 and 7.1M against 9.3M at 48.8M.
 */
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
 * Where to start looking in remainders[lo, hi) for a remainder that is `fraction` of the
 * way through its bucket's range: keys are spread evenly, so its place is about the same
 * fraction of the way through the bucket.
 */
function guess(lo: number, hi: number, fraction: number): number {
  return lo + Math.floor((hi - lo) * fraction);
}

/**
 * Whether rem is in the sorted remainders[lo, hi), searching outwards from `at` (lo ≤ at < hi).
 * Reads nothing beyond a hit in either direction: the element past it may lie in a line the
 * touching pass did not bring in.
 */
function scanFrom(rems: Uint32Array, lo: number, hi: number, at: number, rem: number): boolean {
  let i = at;
  if (rems[i] < rem) {
    do i++;
    while (i < hi && rems[i] < rem);
    return i < hi && rems[i] === rem;
  }
  while (i > lo && rems[i] > rem) i--;
  return rems[i] === rem;
}

/** Whether a scrambled key is among the primaries. */
export function hasKey(tables: PrimaryTables, key: number, scale: number): boolean {
  const b = Math.floor(key / scale);
  const rem = key - b * scale;
  const lo = tables.directory[b];
  const hi = tables.directory[b + 1];
  if (lo === hi) return false;
  return scanFrom(tables.remainders, lo, hi, guess(lo, hi, rem / scale), rem);
}

/**
 * How many keys `hasKeys` works on at once. Each pass over a group issues independent
 * loads at random places, which the out-of-order core overlaps: the latency of the cache
 * and TLB misses is paid about once per pass instead of once per key. A group's
 * directory entries and touched remainders (~2 cache lines per key, 32 KiB) stay in L2
 * until the next pass uses them. Measured at 226M accessions (`hasKeys` alone): 128, 256
 * and 512 the same within the noise, 64 and 1024 about 10% slower.
 */
const GROUP = 256;

const groupBuckets = new Int32Array(GROUP);
/** The remainder looked for, or -1 (found nowhere) for a key that is not an accession. */
const groupWanted = new Float64Array(GROUP);
/** Each key's bucket, remainders[lo, hi). */
const groupLo = new Uint32Array(GROUP);
const groupHi = new Uint32Array(GROUP);
/** Where each search starts, and where the touching pass loads: 0 for an empty bucket. */
const groupStart = new Uint32Array(GROUP);
/** Keeps the loads of the touching pass from being optimised away: written, never read, on purpose. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
let sink = 0;

/**
 * Batched `hasKey`: out[i] = 1 when keys[i] is among the primaries, else 0, for i < count.
 * Negative keys (not an accession) answer 0. Works in groups, five passes per group; the
 * two that miss the caches (directory, then remainders) do nothing but load, the
 * arithmetic has passes of its own. Measured: adding one cached load per iteration to a
 * loop of random loads into 1 GiB cuts its rate by 40–60% (most likely because every load
 * waits in the core's load queue until the oldest miss before it retires), and these passes
 * (with groups of 256 instead of 64), instead of the arithmetic mixed into the touching
 * loop, took batched lookups at 226M accessions from 4.9M to 6.2M/s (hits, median of four
 * alternating rounds). One function rather than one per pass: split into functions it
 * measured 15–20% slower, most likely because the compiler's inlining budget then ran out
 * before it reached the search.
 */
export function hasKeys(tables: PrimaryTables, keys: Float64Array, out: Uint8Array, count: number, scale: number): void {
  const dir = tables.directory;
  const rems = tables.remainders;
  if (rems.length === 0) {
    out.fill(0, 0, count);
    return;
  }
  // The group's scratch arrays as locals, as the loops below read them on every iteration.
  const buckets = groupBuckets;
  const wanted = groupWanted;
  const los = groupLo;
  const his = groupHi;
  const starts = groupStart;
  // Multiplying by the inverse instead of dividing: exact, as scale is a power of two.
  const perScale = 1 / scale;
  let touched = 0;
  for (let from = 0; from < count; from += GROUP) {
    const size = Math.min(GROUP, count - from);
    // 1. Each key's bucket and remainder (arithmetic only).
    for (let j = 0; j < size; j++) {
      const key = keys[from + j];
      const b = key < 0 ? 0 : Math.floor(key * perScale);
      buckets[j] = b;
      wanted[j] = key < 0 ? -1 : key - b * scale;
    }
    // 2. Every bucket's range (misses, independent loads only).
    for (let j = 0; j < size; j++) {
      const b = buckets[j];
      los[j] = dir[b];
      his[j] = dir[b + 1];
    }
    // 3. The interpolated place of each remainder in its bucket (arithmetic only). An
    // empty bucket has nothing to search; remainders[0] is a harmless place to touch.
    for (let j = 0; j < size; j++) {
      const lo = los[j];
      const hi = his[j];
      starts[j] = lo === hi ? 0 : guess(lo, hi, Math.max(0, wanted[j]) * perScale);
    }
    // 4. One load at each guessed place (misses): usually the line the search ends in.
    for (let j = 0; j < size; j++) touched = (touched + rems[starts[j]]) | 0;
    // 5. The searches, mostly in cached lines.
    for (let j = 0; j < size; j++) {
      const lo = los[j];
      const hi = his[j];
      out[from + j] = lo < hi && scanFrom(rems, lo, hi, starts[j], wanted[j]) ? 1 : 0;
    }
  }
  sink ^= touched;
}
