// TX answers (`taxons`), validated as dispatch does: the integer checks and INT's rank
// rules without a release index; with one (the taxdump fixture), merged ids mapped, deleted
// and unknown ids dropped, each with a warning naming the release.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxonomyIndex } from '../../../src/families/tx/taxonomy.ts';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, issues } from '../../tasks/helpers.ts';
import { buildFixtureIndex, RELEASE, type BuiltIndex } from './helpers.ts';

let built: BuiltIndex;
beforeAll(async () => {
  built = await buildFixtureIndex();
});
afterAll(() => built.remove());

const tx = (taxons: unknown, index: TaxonomyIndex | null = null) =>
  validateAnswer({ taxons }, context({ tasks: ['TX'], lookups: index ? { TX: index } : {} }));

describe('TX without a release index: the integer check only', () => {
  it('normalises a valid list: taxid, rank, optional confidence; sorted by rank', () => {
    const answer = tx([
      { taxid: 10090, confidence: 0.25, rank: 2 },
      { taxid: 9606, rank: 1 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings).toEqual([]);
    expect(answer.result.TX).toEqual([
      { taxid: 9606, rank: 1 },
      { taxid: 10090, rank: 2, confidence: 0.25 },
    ]);
  });

  it('keeps any positive id, current or not, since nothing says otherwise', () => {
    expect(tx([{ taxid: 3000100 }, { taxid: 42424242 }]).result.TX).toEqual([
      { taxid: 3000100, rank: 1 },
      { taxid: 42424242, rank: 2 },
    ]);
  });

  it('fills ranks as INT does: confidence descending, ties by list order; list order without either', () => {
    expect(
      tx([
        { taxid: 562, confidence: 0.3 },
        { taxid: 9606, confidence: 0.9 },
        { taxid: 4932, confidence: 0.3 },
      ]).result.TX?.map((t) => [t.taxid, t.rank]),
    ).toEqual([
      [9606, 1],
      [562, 2],
      [4932, 3],
    ]);
    expect(tx([{ taxid: 4932 }, { taxid: 562 }]).result.TX?.map((t) => t.rank)).toEqual([1, 2]);
  });

  it('warns when only some taxa have ranks and ranks the others after the highest given one', () => {
    const answer = tx([{ taxid: 562, rank: 4 }, { taxid: 9606 }]);
    expect(issues(answer.warnings)).toEqual([
      'taxons: some taxa have a rank and others not: the unranked ones were ranked after them, by confidence then list order',
    ]);
    expect(answer.result.TX).toEqual([
      { taxid: 562, rank: 4 },
      { taxid: 9606, rank: 5 },
    ]);
  });

  it.each([
    [{ taxid: 0 }, 'taxons[0].taxid: number 0 is not an NCBI Taxonomy id (a positive int, at most 2147483647)'],
    [{ taxid: -9606 }, 'taxons[0].taxid: number -9606 is not an NCBI Taxonomy id (a positive int, at most 2147483647)'],
    [{ taxid: 2 ** 31 }, 'taxons[0].taxid: number 2147483648 is not an NCBI Taxonomy id (a positive int, at most 2147483647)'],
    [{ taxid: 96.06 }, 'taxons[0].taxid: expected an int, got number 96.06'],
    [{ taxid: '9606' }, 'taxons[0].taxid: expected an int, got string "9606"'],
    [{ rank: 1 }, 'taxons[0].taxid: required field is missing'],
    [{ taxid: 9606, confidence: 1.5 }, 'taxons[0].confidence: 1.5 is not in (0,1]'],
    [{ taxid: 9606, confidence: '0.5' }, 'taxons[0].confidence: expected a double in (0,1], got string "0.5"'],
    [{ taxid: 9606, rank: 0 }, 'taxons[0].rank: 0 is not an integer ≥ 1'],
    [9606, 'taxons[0]: expected a struct, got number 9606'],
  ])('refuses %j', (item, message) => {
    const answer = tx([item]);
    expect(issues(answer.errors)).toEqual([message]);
    expect(answer.result.TX).toBeUndefined();
  });

  it('refuses a taxon given twice, and a rank used twice, naming the first use', () => {
    expect(issues(tx([{ taxid: 9606 }, { taxid: 9606 }]).errors)).toEqual([
      'taxons[1].taxid: 9606 is already given in taxons[0]; give each taxon once',
    ]);
    expect(
      issues(
        tx([
          { taxid: 9606, rank: 1 },
          { taxid: 562, rank: 1 },
        ]).errors,
      ),
    ).toEqual(['taxons[1].rank: rank 1 is already used by taxons[0]']);
  });

  it('refuses a value that is not an array; reads nil as no result; warns about unknown fields', () => {
    expect(issues(tx({ taxid: 9606 }).errors)).toEqual(['taxons: expected an array of structs {taxid, confidence?, rank?}, got struct']);
    const none = tx(null);
    expect(none.errors).toEqual([]);
    expect(issues(none.warnings)).toEqual(['taxons: nil read as no result for this task']);
    expect(none.result.TX).toBeUndefined();
    const extra = tx([{ taxid: 9606, name: 'Homo sapiens' }]);
    expect(extra.result.TX).toEqual([{ taxid: 9606, rank: 1 }]);
    expect(issues(extra.warnings)).toEqual(['taxons[0].name: unknown field ignored (known: taxid, confidence, rank)']);
  });

  it('is ignored, with a warning, when the server was not asked for TX', () => {
    const answer = validateAnswer({ taxons: [{ taxid: 9606 }] }, context({ tasks: ['INT'] }));
    expect(answer.result).toEqual({});
    expect(issues(answer.warnings)).toEqual(['taxons: task TX was not asked of this server; ignored']);
  });
});

describe('TX with a release index', () => {
  it('keeps current taxa as sent, without a word', () => {
    const answer = tx(
      [
        { taxid: 9606, rank: 1 },
        { taxid: 562, rank: 2 },
      ],
      built.index,
    );
    expect(answer.warnings).toEqual([]);
    expect(answer.result.TX).toEqual([
      { taxid: 9606, rank: 1 },
      { taxid: 562, rank: 2 },
    ]);
  });

  it('maps a merged id to the taxon it became, through a chain of merges, with a warning naming the release', () => {
    const answer = tx(
      [
        { taxid: 3000002, rank: 1, confidence: 0.5 },
        { taxid: 3000001, rank: 2 },
      ],
      built.index,
    );
    expect(issues(answer.warnings)).toEqual([
      `taxons[0].taxid: 3000002 was merged into 10090 in NCBI Taxonomy release ${RELEASE}; mapped to 10090`,
      `taxons[1].taxid: 3000001 was merged into 10090 in NCBI Taxonomy release ${RELEASE}; mapped to 10090`,
      'taxons[1].taxid: after merged taxa were mapped, this item (rank 2) repeats taxons[0] (10090, rank 1); kept the better-ranked one, dropped this one',
    ]);
    expect(answer.result.TX).toEqual([{ taxid: 10090, rank: 1, confidence: 0.5 }]);
  });

  it('keeps the better-ranked item when a merged id repeats a current one, whichever comes first', () => {
    const answer = tx(
      [
        { taxid: 3000001, rank: 3 },
        { taxid: 10090, rank: 2 },
      ],
      built.index,
    );
    expect(answer.result.TX).toEqual([{ taxid: 10090, rank: 2 }]);
    expect(answer.warnings.at(-1)?.path).toBe('taxons[0].taxid');
  });

  it('drops deleted and unknown ids with a warning naming the release; the ranks of the others keep their gaps', () => {
    const answer = tx([{ taxid: 3000100 }, { taxid: 42424242 }, { taxid: 4932 }], built.index);
    expect(answer.errors).toEqual([]);
    expect(issues(answer.warnings)).toEqual([
      `taxons[0].taxid: 3000100 was deleted from NCBI Taxonomy release ${RELEASE}; item dropped`,
      `taxons[1].taxid: 42424242 is not a taxon of NCBI Taxonomy release ${RELEASE} (neither current, merged nor deleted); item dropped`,
    ]);
    expect(answer.result.TX).toEqual([{ taxid: 4932, rank: 3 }]);
  });

  it('keeps an empty list when every id was dropped (the answer stays valid)', () => {
    const answer = tx([{ taxid: 3000101 }], built.index);
    expect(answer.errors).toEqual([]);
    expect(answer.result.TX).toEqual([]);
  });

  it('still refuses what is not an id at all, before looking anything up', () => {
    const answer = tx([{ taxid: 0 }, { taxid: 3000100 }], built.index);
    expect(issues(answer.errors)).toEqual(['taxons[0].taxid: number 0 is not an NCBI Taxonomy id (a positive int, at most 2147483647)']);
    expect(answer.warnings).toEqual([]);
  });
});
