import { describe, expect, it } from 'vitest';
import { CODE_LIMIT, decodeAccession, encodeAccession, SIX_CHARACTER_CODES, TEN_BASE } from '../../src/uniprot/codec.ts';
import { scrambleCode, unscrambleCode } from '../../src/uniprot/keys.ts';
import { isAccession } from '../../src/uniprot/pattern.ts';

describe('accession codec', () => {
  it('uses 27 bits for 6-character accessions and 2^27 + 45 bits for 10-character ones', () => {
    expect(SIX_CHARACTER_CODES).toBe(3 * 10 * 36 ** 3 * 10 + 23 * 10 * 26 * 36 ** 2 * 10);
    expect(SIX_CHARACTER_CODES).toBeLessThan(2 ** 27);
    expect(TEN_BASE).toBe(2 ** 27);
    expect(CODE_LIMIT - TEN_BASE).toBeLessThan(2 ** 45);
    expect(CODE_LIMIT).toBeLessThan(2 ** 53);
  });

  it.each([
    ['O00000', 0],
    ['Q9ZZZ9', 3 * 10 * 36 ** 3 * 10 - 1],
    ['A0A000', 3 * 10 * 36 ** 3 * 10],
    ['Z9ZZZ9', SIX_CHARACTER_CODES - 1],
    ['A0A000A000', TEN_BASE],
    ['Z9ZZZ9ZZZ9', CODE_LIMIT - 1],
  ])('maps the edge %s to %d and back', (acc, code) => {
    expect(encodeAccession(acc)).toBe(code);
    expect(decodeAccession(code)).toBe(acc);
  });

  it('round-trips the spec examples and orders 6-character codes before 10-character ones', () => {
    for (const acc of ['P12345', 'A2BC19', 'O12345', 'Q1AAA9', 'A0A023GPI8']) expect(decodeAccession(encodeAccession(acc))).toBe(acc);
    expect(encodeAccession('Z9ZZZ9')).toBeLessThan(encodeAccession('A0A000A000'));
  });

  it('is a bijection on a sweep of codes across both ranges', () => {
    const codes: number[] = [];
    for (let code = 0; code < SIX_CHARACTER_CODES; code += 1831) codes.push(code);
    const step = Math.floor((CODE_LIMIT - TEN_BASE) / 40_000);
    for (let code = TEN_BASE; code < CODE_LIMIT; code += step) codes.push(code);
    const seen = new Set<string>();
    const failures: number[] = [];
    for (const code of codes) {
      const acc = decodeAccession(code);
      if (!isAccession(acc) || encodeAccession(acc) !== code || seen.has(acc)) failures.push(code);
      seen.add(acc);
    }
    expect(failures).toEqual([]);
    expect(seen.size).toBe(codes.length);
    expect(codes.length).toBeGreaterThan(80_000);
  });

  it.each(['A12345', 'O0A023GPI8', 'p12345', 'Q9ZFS6-2', 'P1234', 'P123456', '', 'A0A023GPI8X', 'OAA0000000'])(
    'refuses %j with -1',
    (s) => {
      expect(encodeAccession(s)).toBe(-1);
    },
  );

  it('refuses to decode numbers that are not codes', () => {
    for (const bad of [-1, 1.5, SIX_CHARACTER_CODES, TEN_BASE - 1, CODE_LIMIT]) expect(() => decodeAccession(bad)).toThrow(RangeError);
  });

  it('scrambles keys bijectively within 46 bits', () => {
    for (const code of [0, 1, SIX_CHARACTER_CODES - 1, TEN_BASE, CODE_LIMIT - 1, 2 ** 46 - 1, 123_456_789_012]) {
      const key = scrambleCode(code);
      expect(key).toBeGreaterThanOrEqual(0);
      expect(key).toBeLessThan(2 ** 46);
      expect(Number.isInteger(key)).toBe(true);
      expect(unscrambleCode(key)).toBe(code);
    }
    // Neighbouring codes land far apart: that is what spreads clustered releases over buckets.
    expect(Math.abs(scrambleCode(TEN_BASE) - scrambleCode(TEN_BASE + 1))).toBeGreaterThan(2 ** 30);
  });
});
