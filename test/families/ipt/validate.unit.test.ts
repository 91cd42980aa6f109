import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, fakeRelease, issues } from '../../tasks/helpers.ts';

const release = fakeRelease(['P12345', 'P69905', 'P68871', 'Q9ZFS6'], { Q00001: ['P12345'], P00001: ['P69905', 'P68871'] }, 'R1');
const ipt = (pairs: unknown, accessions: typeof release | null = release) =>
  validateAnswer({ pairs }, context({ tasks: ['IPT'], accessions }));

describe('IPT: pairs', () => {
  it('normalises pairs with a ≤ b and ranks filled in', () => {
    const answer = ipt([
      { a: 'Q9ZFS6', b: 'P12345', confidence: 0.5, evidence: 'binds' },
      { a: 'P69905', b: 'P68871', confidence: 0.8 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.IPT).toEqual([
      { a: 'P68871', b: 'P69905', rank: 1, confidence: 0.8 },
      { a: 'P12345', b: 'Q9ZFS6', rank: 2, confidence: 0.5, evidence: 'binds' },
    ]);
  });

  it('allows a pair of an accession with itself (homodimer)', () => {
    const answer = ipt([{ a: 'P12345', b: 'P12345' }]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.IPT).toEqual([{ a: 'P12345', b: 'P12345', rank: 1 }]);
  });

  it('refuses the same unordered pair twice (A–B then B–A)', () => {
    const answer = ipt([
      { a: 'P12345', b: 'Q9ZFS6' },
      { a: 'Q9ZFS6', b: 'P12345' },
    ]);
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0].path).toBe('pairs[1]');
    expect(answer.errors[0].message).toMatch(/already given in pairs\[0\]/);
  });

  it.each([
    [{ a: 'P12345' }, 'pairs[0].b: required field is missing'],
    [{ a: 'P12345', b: 7 }, 'pairs[0].b: expected a string, got number 7'],
    [{ a: 'P12345', b: 'Q9ZFS6', rank: -1 }, 'pairs[0].rank: -1 is not an integer ≥ 1'],
    [{ a: 'P12345', b: 'Q9ZFS6', confidence: 2 }, 'pairs[0].confidence: 2 is not in (0,1]'],
    [{ a: 'P12345', b: 'q9zfs6' }, 'pairs[0].b: "q9zfs6" is not a UniProt accession: accessions are upper case (Q9ZFS6)'],
  ])('refuses %j', (pair, message) => {
    expect(issues(ipt([pair]).errors)).toEqual([message]);
  });

  it('refuses duplicated ranks', () => {
    const answer = ipt([
      { a: 'P12345', b: 'Q9ZFS6', rank: 4 },
      { a: 'P12345', b: 'P12345', rank: 4 },
    ]);
    expect(issues(answer.errors)).toEqual(['pairs[1].rank: rank 4 is already used by pairs[0]']);
  });

  it('drops a pair with an accession not in the release, warning about each unknown member', () => {
    const answer = ipt([
      { a: 'P99999', b: 'O99999' },
      { a: 'P12345', b: 'Q9ZFS6' },
    ]);
    expect(answer.result.IPT).toEqual([{ a: 'P12345', b: 'Q9ZFS6', rank: 2 }]);
    expect(answer.warnings.map((w) => w.path)).toEqual(['pairs[0].a', 'pairs[0].b']);
    expect(answer.warnings[0].message).toMatch(/release R1.*pair dropped/);
  });

  it('maps secondaries, re-orders the pair, and drops one-to-many secondaries', () => {
    const answer = ipt([
      { a: 'Q9ZFS6', b: 'Q00001' },
      { a: 'P00001', b: 'P12345' },
    ]);
    expect(answer.result.IPT).toEqual([{ a: 'P12345', b: 'Q9ZFS6', rank: 1 }]);
    expect(answer.warnings.map((w) => w.path)).toEqual(['pairs[0].b', 'pairs[1].a']);
  });

  it('keeps the better-ranked pair when mapping makes two pairs equal', () => {
    const answer = ipt([
      { a: 'Q00001', b: 'Q9ZFS6', rank: 2 },
      { a: 'Q9ZFS6', b: 'P12345', rank: 1 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.IPT).toEqual([{ a: 'P12345', b: 'Q9ZFS6', rank: 1 }]);
    expect(answer.warnings.at(-1)?.message).toMatch(/this item \(rank 2\) repeats pairs\[1\]/);
  });
});
