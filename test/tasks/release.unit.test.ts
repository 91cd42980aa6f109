// Validation against a real index built from the fixture release (not a stand-in).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAnswer } from '../../src/families/validate.ts';
import { buildIndex } from '../../src/uniprot/build.ts';
import { loadUniprotIndex, type UniprotIndex } from '../../src/uniprot/index.ts';
import { context } from './helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uniprot');
const dir = mkdtempSync(join(tmpdir(), 'release-'));
let index: UniprotIndex;

beforeAll(async () => {
  const out = join(dir, 'release.idx');
  await buildIndex({
    primaries: join(FIXTURES, 'primaries.txt'),
    secondary: join(FIXTURES, 'sec_ac.txt'),
    out,
    release: { name: 'TEST_2024' },
  });
  index = loadUniprotIndex(out);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('validation with a loaded UniProt index', () => {
  it('keeps primaries, maps secondaries, drops unknown and ambiguous accessions', () => {
    const answer = validateAnswer(
      {
        normalizations: [{ dbid: 'A0A023GPI8' }, { dbid: 'Q00001' }, { dbid: 'P00001' }, { dbid: 'O99999' }],
        pairs: [{ a: 'Q99998', b: 'A0A000AAA1' }],
      },
      context({ tasks: ['INT', 'IPT'], accessions: index }),
    );
    expect(answer.errors).toEqual([]);
    expect(answer.result.INT).toEqual([
      { accession: 'A0A023GPI8', rank: 1 },
      { accession: 'P12345', rank: 2 },
    ]);
    expect(answer.result.IPT).toEqual([{ a: 'A0A023GPI8', b: 'P04637', rank: 1 }]);
    expect(answer.warnings.map((w) => w.path)).toEqual([
      'normalizations[1].dbid',
      'normalizations[2].dbid',
      'normalizations[3].dbid',
      'pairs[0].a',
      'pairs[0].b',
    ]);
    expect(answer.warnings.every((w) => w.message.includes('UniProt release TEST_2024'))).toBe(true);
  });
});
