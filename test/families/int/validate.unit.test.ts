import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, fakeRelease, issues } from '../../tasks/helpers.ts';

const release = fakeRelease(['P12345', 'P69905', 'P68871', 'A0A023GPI8', 'Q9ZFS6'], {
  Q00001: ['P12345'],
  P00001: ['P69905', 'P68871'],
});
const int = (normalizations: unknown, accessions = release) => validateAnswer({ normalizations }, context({ tasks: ['INT'], accessions }));

describe('INT: normalizations', () => {
  it('normalises a valid list: accession, rank, optional fields; sorted by rank', () => {
    const answer = int([
      { dbid: 'P12345', dbname: 'UniProt', taxid: 9606, confidence: 0.4, rank: 2, evidence: 'p53 binds' },
      { dbid: 'A0A023GPI8', dbname: 'uniprot', rank: 1 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings).toEqual([]);
    expect(answer.result.INT).toEqual([
      { accession: 'A0A023GPI8', rank: 1 },
      { accession: 'P12345', rank: 2, confidence: 0.4, taxid: 9606, evidence: 'p53 binds' },
    ]);
  });

  it('ranks by list order when no item has rank or confidence', () => {
    const answer = int([{ dbid: 'Q9ZFS6' }, { dbid: 'P12345' }]);
    expect(answer.result.INT).toEqual([
      { accession: 'Q9ZFS6', rank: 1 },
      { accession: 'P12345', rank: 2 },
    ]);
  });

  it('ranks by confidence descending, ties by list order, when ranks are missing', () => {
    const answer = int([
      { dbid: 'Q9ZFS6', confidence: 0.3 },
      { dbid: 'P12345', confidence: 0.9 },
      { dbid: 'P69905', confidence: 0.3 },
    ]);
    expect(answer.result.INT?.map((i) => [i.accession, i.rank])).toEqual([
      ['P12345', 1],
      ['Q9ZFS6', 2],
      ['P69905', 3],
    ]);
  });

  it('warns when only some items have ranks, and ranks the others after them', () => {
    const answer = int([{ dbid: 'Q9ZFS6', rank: 1 }, { dbid: 'P12345' }]);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings.map((w) => w.path)).toEqual(['normalizations']);
    expect(answer.result.INT?.map((i) => i.rank)).toEqual([1, 2]);
  });

  it.each([
    [{ dbid: 'P12345', confidence: 1.5 }, 'normalizations[0].confidence: 1.5 is not in (0,1]'],
    [{ dbid: 'P12345', confidence: 0 }, 'normalizations[0].confidence: 0 is not in (0,1]'],
    [{ dbid: 'P12345', confidence: '0.5' }, 'normalizations[0].confidence: expected a double in (0,1], got string "0.5"'],
    [{ dbid: 'P12345', rank: 0 }, 'normalizations[0].rank: 0 is not an integer ≥ 1'],
    [{ dbid: 'P12345', rank: 1.5 }, 'normalizations[0].rank: 1.5 is not an integer ≥ 1'],
    [{ dbid: 'P12345', rank: '1' }, 'normalizations[0].rank: expected an int ≥ 1, got string "1"'],
    [{ dbid: 'P12345', taxid: '9606' }, 'normalizations[0].taxid: expected an int, got string "9606"'],
    [{ dbid: 'P12345', taxid: 96.5 }, 'normalizations[0].taxid: expected an int, got number 96.5'],
    [{ dbid: 'P12345', evidence: 3 }, 'normalizations[0].evidence: expected a string, got number 3'],
    [{ dbid: 12345 }, 'normalizations[0].dbid: expected a string, got number 12345'],
    [{ dbname: 'UniProt' }, 'normalizations[0].dbid: required field is missing'],
    [{ dbid: 'P12345', dbname: 'EntrezGene' }, expect.stringMatching(/^normalizations\[0\]\.dbname: "EntrezGene" is not UniProt/)],
    ['P12345', 'normalizations[0]: expected a struct, got string "P12345"'],
  ])('refuses %j', (item, message) => {
    const answer = int([item]);
    expect(issues(answer.errors)).toEqual([message]);
    expect(answer.result.INT).toBeUndefined();
  });

  it('refuses a normalizations value that is not an array', () => {
    expect(issues(int({ dbid: 'P12345' }).errors)).toEqual([
      expect.stringMatching(/^normalizations: expected an array of structs .* got struct$/),
    ]);
  });

  it('accepts dbname UniProt in any case, and UniProtKB', () => {
    for (const dbname of ['UNIPROT', 'uniProt', 'UniProtKB']) expect(int([{ dbid: 'P12345', dbname }]).errors).toEqual([]);
  });

  it('refuses the same accession twice', () => {
    const answer = int([{ dbid: 'P12345' }, { dbid: 'Q9ZFS6' }, { dbid: 'P12345' }]);
    expect(issues(answer.errors)).toEqual([
      'normalizations[2].dbid: P12345 is already given in normalizations[0]; give each accession once',
    ]);
  });

  it('refuses duplicated ranks, naming the first user', () => {
    const answer = int([
      { dbid: 'P12345', rank: 1 },
      { dbid: 'Q9ZFS6', rank: 2 },
      { dbid: 'P69905', rank: 1 },
    ]);
    expect(issues(answer.errors)).toEqual(['normalizations[2].rank: rank 1 is already used by normalizations[0]']);
  });

  it.each([
    ['A12345', /does not match the UniProt accession pattern/],
    ['O0A023GPI8', /does not match the UniProt accession pattern/],
    ['p12345', /accessions are upper case \(P12345\)/],
    ['Q9ZFS6-2', /isoform identifier.*send the entry accession Q9ZFS6/],
    ['P12345.3', /version suffix.*send P12345 without \.3/],
    ['', /empty string/],
  ])('refuses the malformed accession %j', (dbid, message) => {
    const answer = int([{ dbid }]);
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0].path).toBe('normalizations[0].dbid');
    expect(answer.errors[0].message).toMatch(message);
  });

  it('tolerates white space around an accession (untyped values in pretty-printed XML)', () => {
    expect(int([{ dbid: '\n  P12345\n' }]).result.INT).toEqual([{ accession: 'P12345', rank: 1 }]);
  });

  it('drops, with a warning naming the release, a well-formed accession not in the release', () => {
    const answer = int([{ dbid: 'P99999' }, { dbid: 'P12345' }]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.INT).toEqual([{ accession: 'P12345', rank: 2 }]);
    expect(issues(answer.warnings)).toEqual([
      'normalizations[0].dbid: P99999 is not an accession of UniProt release TEST_2024 (neither primary nor secondary); item dropped',
    ]);
  });

  it('maps a secondary accession to its primary, with a warning', () => {
    const answer = int([{ dbid: 'Q00001', confidence: 0.7 }]);
    expect(answer.result.INT).toEqual([{ accession: 'P12345', rank: 1, confidence: 0.7 }]);
    expect(issues(answer.warnings)).toEqual([
      'normalizations[0].dbid: Q00001 is a secondary accession in UniProt release TEST_2024; mapped to its primary accession P12345',
    ]);
  });

  it('drops a secondary accession of several entries, with a warning listing them', () => {
    const answer = int([{ dbid: 'P00001' }]);
    expect(answer.result.INT).toEqual([]);
    expect(answer.warnings[0].message).toMatch(
      /P00001 is a secondary accession of 2 entries .*\(P69905, P68871\); ambiguous, item dropped/,
    );
  });

  it('keeps the better-ranked item when a mapped accession repeats another', () => {
    const answer = int([
      { dbid: 'Q00001', rank: 1 },
      { dbid: 'P12345', rank: 2 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.INT).toEqual([{ accession: 'P12345', rank: 1 }]);
    expect(answer.warnings.map((w) => w.path)).toEqual(['normalizations[0].dbid', 'normalizations[1].dbid']);
    expect(answer.warnings[1].message).toMatch(/repeats normalizations\[0\].*kept the better-ranked one/);
  });

  it('checks the pattern only when no release is loaded', () => {
    const answer = int([{ dbid: 'P99999' }, { dbid: 'Q00001' }], null as never);
    expect(answer.warnings).toEqual([]);
    expect(answer.result.INT?.map((i) => i.accession)).toEqual(['P99999', 'Q00001']);
  });

  it('warns about unknown fields and ignores them', () => {
    const answer = int([{ dbid: 'P12345', score: 3 }]);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings[0].path).toBe('normalizations[0].score');
    expect(answer.result.INT).toEqual([{ accession: 'P12345', rank: 1 }]);
  });

  it('reads nil fields as absent', () => {
    expect(int([{ dbid: 'P12345', confidence: null, rank: null }]).result.INT).toEqual([{ accession: 'P12345', rank: 1 }]);
  });
});
