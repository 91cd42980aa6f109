// A small seeded PRNG (mulberry32) so that sampled suites, synthetic benchmarks and test
// data are the same on every machine and Node version; Math.random cannot be seeded.

/** 32-bit FNV-1a of the seed's code points: a number seed from a text naming the data. */
export function hashSeed(seed: string | number): number {
  let h = 0x811c9dc5;
  for (const ch of String(seed)) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Uniform floats in [0, 1), from a seed string or number (hashed first). */
export function seededRandom(seed: string | number): () => number {
  return mulberry32(hashSeed(seed));
}

/** mulberry32 on the raw 32-bit seed: uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * n distinct indices of [0, total), ascending: a partial Fisher–Yates shuffle over a
 * sparse swap table, so sampling 100 of a product of millions costs 100 steps.
 */
export function sampleIndices(n: number, total: number, random: () => number): number[] {
  if (n >= total) return Array.from({ length: total }, (_, i) => i);
  const swapped = new Map<number, number>();
  const at = (i: number) => swapped.get(i) ?? i;
  const picked: number[] = [];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (total - i));
    const value = at(j);
    swapped.set(j, at(i));
    picked.push(value);
  }
  return picked.sort((a, b) => a - b);
}
