// The index stores a scrambled form of each accession code. Real releases are heavily
// clustered (most TrEMBL accessions start with A0A…), so bucketing raw codes by their
// high bits would give a few giant buckets. A bijective scramble spreads any set evenly
// over the 46-bit key space; being a bijection, nothing is lost and the bucket number
// plus the stored remainder identify the accession exactly.
//
// The scramble is a 3-round Feistel network on two 23-bit halves. A Feistel network is
// invertible whatever its round function, and 32-bit integer maths keeps it fast.

const HALF = 2 ** 23;
const MASK = HALF - 1;
/** All keys are < 2^KEY_BITS (codes are < 2^46, see codec.ts). */
export const KEY_BITS = 46;
const ROUND_KEYS = [0x3c6ef372, 0x5a827999, 0x6ed9eba1];

function mix(x: number, k: number): number {
  let h = Math.imul(x ^ k, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  return h & MASK;
}

/** Code → key, a bijection on [0, 2^46). */
export function scrambleCode(code: number): number {
  let l = Math.floor(code / HALF);
  let r = code - l * HALF;
  for (let i = 0; i < 3; i++) {
    const next = l ^ mix(r, ROUND_KEYS[i]);
    l = r;
    r = next;
  }
  return l * HALF + r;
}

/** Key → code, the inverse of scrambleCode. */
export function unscrambleCode(key: number): number {
  let l = Math.floor(key / HALF);
  let r = key - l * HALF;
  for (let i = 2; i >= 0; i--) {
    const prev = r ^ mix(l, ROUND_KEYS[i]);
    r = l;
    l = prev;
  }
  return l * HALF + r;
}
