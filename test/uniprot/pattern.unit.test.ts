import { describe, expect, it } from 'vitest';
import { ACCESSION_PATTERN, explainAccession, isAccession } from '../../src/uniprot/pattern.ts';

describe('UniProt accession pattern', () => {
  it.each(['P12345', 'A2BC19', 'O12345', 'Q1AAA9', 'A0A023GPI8'])('accepts the spec example %s', (acc) => {
    expect(isAccession(acc)).toBe(true);
    expect(explainAccession(acc)).toBeNull();
  });

  it.each(['A12345', 'O0A023GPI8', 'p12345', 'Q9ZFS6-2'])('refuses the spec example %s', (acc) => {
    expect(isAccession(acc)).toBe(false);
    expect(explainAccession(acc)).not.toBeNull();
  });

  it('is anchored as a whole: no prefix or suffix of either alternative slips through', () => {
    expect(isAccession('P12345X')).toBe(false);
    expect(isAccession('XP12345')).toBe(false);
    expect(isAccession('A0A023GPI8Z')).toBe(false);
    expect(isAccession('A0A023')).toBe(true);
    expect(isAccession('A0A023GPI')).toBe(false);
    expect(isAccession('A0A023GPI8A0A0')).toBe(false);
    expect(ACCESSION_PATTERN.test('xx P12345')).toBe(false);
  });

  it('refuses isoform and version suffixes with a message that says so', () => {
    expect(explainAccession('Q9ZFS6-2')).toMatch(/isoform identifier.*send the entry accession Q9ZFS6 without the -2 suffix/);
    expect(explainAccession('P12345.3')).toMatch(/version suffix.*send P12345 without \.3/);
    expect(explainAccession('A0A023GPI8-12')).toMatch(/isoform/);
  });

  it('says when only the case is wrong, and names other failures plainly', () => {
    expect(explainAccession('p12345')).toMatch(/upper case \(P12345\)/);
    expect(explainAccession('A12345')).toMatch(/does not match the UniProt accession pattern/);
    expect(explainAccession(' P12345')).toMatch(/surrounding white space/);
  });
});
