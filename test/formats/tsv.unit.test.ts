import { describe, expect, it } from 'vitest';
import { FormatError, runOf } from '../../src/formats/common.ts';
import { exportTsv, importTsv, type ExportArticle, type RunDocument } from '../../src/families/formats.ts';
import { parseIntGold, scoreRankedRun } from '../../src/scoring/index.ts';

const run: RunDocument[] = [
  {
    id: 'doc-𝛼1',
    result: {
      ACT: { relevant: true, confidence: 0.8 },
      INT: [
        { accession: 'P04637', rank: 2, confidence: 0.1 + 0.2 },
        { accession: 'Q00987', rank: 1, confidence: 0.9 },
      ],
      IPT: [{ a: 'P04637', b: 'Q00987', rank: 1, confidence: 0.75 }],
    },
  },
  { id: 'doc2', result: { ACT: { relevant: false, confidence: 0.6 }, INT: [{ accession: 'P12345', rank: 3, confidence: 1 }] } },
  { id: 'doc3', result: { ACT: { relevant: true, confidence: 0.95 }, IPT: [] } },
  { id: 'doc4', result: { ACT: { relevant: false, confidence: 0.7 } } },
];

describe('BC II.5 TSV', () => {
  it('writes result files the official layout reads', () => {
    expect(exportTsv('INT', run)).toEqual({
      text: 'doc-𝛼1\tQ00987\t1\t0.9\ndoc-𝛼1\tP04637\t2\t0.30000000000000004\ndoc2\tP12345\t3\t1\n',
      columns: 'rank,confidence',
    });
    // ACT ranks count within each class by confidence: doc3 before doc-𝛼1, doc4 before doc2.
    expect(exportTsv('ACT', run).text).toBe('doc-𝛼1\t1\t2\t0.8\ndoc2\t0\t2\t0.6\ndoc3\t1\t1\t0.95\ndoc4\t0\t1\t0.7\n');
    expect(exportTsv('IPT', run).text).toBe('doc-𝛼1\tP04637\tQ00987\t1\t0.75\n');
  });

  it('round-trips each task through the scoring library parsers', () => {
    for (const task of ['ACT', 'INT', 'IPT'] as const) {
      const { text, columns } = exportTsv(task, run);
      const expected = run.flatMap((d) =>
        d.result[task] && !(Array.isArray(d.result[task]) && d.result[task].length === 0)
          ? [{ id: d.id, result: { [task]: d.result[task] } }]
          : [],
      );
      const sortByRank = (docs: RunDocument[]) =>
        docs.map((d) => ({ id: d.id, result: task === 'INT' ? { INT: [...d.result.INT!].sort((x, y) => x.rank - y.rank) } : d.result }));
      expect(sortByRank(importTsv(task, text, { columns }))).toEqual(sortByRank(expected as RunDocument[]));
    }
  });

  it('omits the confidence column unless every item has one, and numbers ranks from line order on import', () => {
    const partial: RunDocument[] = [
      {
        id: 'd',
        result: {
          INT: [
            { accession: 'A1', rank: 1 },
            { accession: 'B2', rank: 4, confidence: 0.5 },
          ],
        },
      },
    ];
    const exported = exportTsv('INT', partial);
    expect(exported).toEqual({ text: 'd\tA1\t1\nd\tB2\t4\n', columns: 'rank' });
    expect(importTsv('INT', exported.text, { columns: 'rank' })).toEqual([
      {
        id: 'd',
        result: {
          INT: [
            { accession: 'A1', rank: 1 },
            { accession: 'B2', rank: 4 },
          ],
        },
      },
    ]);
    expect(importTsv('INT', 'd\tB2\nd\tA1\n', { columns: 'order' })).toEqual([
      {
        id: 'd',
        result: {
          INT: [
            { accession: 'B2', rank: 1 },
            { accession: 'A1', rank: 2 },
          ],
        },
      },
    ]);
  });

  it('exports runs that score like the originals', () => {
    const articles: ExportArticle[] = run.map((d) => ({ id: d.id, text: '', answers: [{ server: 's1', result: d.result }] }));
    const { text } = exportTsv('INT', runOf(articles, 's1'));
    const gold = parseIntGold('doc-𝛼1\tP04637\ndoc2\tP12345\n');
    const score = scoreRankedRun(
      gold,
      new Map(
        importTsv('INT', text).map((d) => [
          d.id,
          d.result.INT!.map((i, n) => ({ key: i.accession, rank: i.rank, confidence: i.confidence, line: n + 1 })),
        ]),
      ),
      { task: 'INT' },
    );
    expect(score.micro.r).toBe(1);
  });

  it('reports bad files as format errors with the line', () => {
    expect(() => importTsv('INT', 'd\tA1\t1\t0.5\nd\tA1\t2\t0.4\n')).toThrow(FormatError);
    expect(() => importTsv('INT', 'd\tA1\t0\t0.5\n', { file: 'run.tsv' })).toThrow(/run.tsv, line 1/);
    expect(() => importTsv('ACT', 'd\t1\t1\n', { columns: 'rank' })).toThrow(/confidence column/);
  });
});
