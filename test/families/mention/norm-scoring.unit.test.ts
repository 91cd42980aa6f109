// A MENTION challenge whose gold carries concept ids (brat N lines): the leaderboard's
// figures hold BC5CDR's mention/id and evaluate.py's span/identifier beside strict/left/right.
import { describe, expect, it } from 'vitest';
import { mentionScoring } from '../../../src/families/mention/scoring.ts';
import { parseBratMentions } from '../../../src/scoring/index.ts';
import { ScoringInputError } from '../../../src/scoring/errors.ts';

const ann = (...lines: string[]) => lines.map((l) => l.replace(/ \| /g, '\t')).join('\n') + '\n';
const GOLD = ann(
  'T1 | Disease 0 25 | breast and ovarian cancer',
  'N1 | Reference T1 MESH:D001943 | Breast Neoplasms',
  'N2 | Reference T1 MeSH:D010051 | Ovarian Neoplasms',
  'T2 | Chemical 30 37 | aspirin',
  'N3 | Reference T2 MESH:D001241',
);

describe('brat N lines', () => {
  it('read each Reference line as one id of its T, in stored form', () => {
    expect(parseBratMentions(GOLD, { doc: 'd' })).toEqual([
      { doc: 'd', start: 0, end: 25, type: 'Disease', ids: ['MESH:D001943', 'MESH:D010051'] },
      { doc: 'd', start: 30, end: 37, type: 'Chemical', ids: ['MESH:D001241'] },
    ]);
  });

  it('refuse a malformed id or a T the file lacks, naming the line', () => {
    const bad = (text: string) => {
      try {
        parseBratMentions(text, { file: 'x.ann' });
      } catch (e) {
        return e as ScoringInputError;
      }
    };
    expect(bad(ann('T1 | Disease 0 5 | fever', 'N1 | Reference T1 MESH:D001943|D010051'))).toMatchObject({ file: 'x.ann', line: 2 });
    expect(bad(ann('T1 | Disease 0 5 | fever', 'N1 | Reference T1 D001943'))).toMatchObject({ line: 2 });
    expect(bad(ann('T1 | Disease 0 5 | fever', 'N1 | Reference T9 MESH:D001943'))?.message).toContain('T9');
  });
});

describe('MENTION scoring with ids', () => {
  const { gold } = mentionScoring.parseGold({ documents: { d: { ann: GOLD } } });
  it('adds the normalization figures when the gold has ids', () => {
    const run = mentionScoring.onlineRun([
      { doc: 'd', value: [{ start: 0, end: 25, text: 'breast and ovarian cancer', type: 'Disease', ids: ['MESH:D001943'] }] },
    ] as never);
    const { metrics } = mentionScoring.score(gold, run, {}) as { metrics: Record<string, unknown> };
    expect(metrics.strict).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(metrics.mention).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(metrics.id).toMatchObject({ tp: 1, fp: 0, fn: 2 });
    expect(metrics.span).toEqual({ strict: { p: 1, r: 0.5, f: 2 / 3 }, approx: { p: 1, r: 0.5, f: 2 / 3 } });
    expect(metrics.identifier).toEqual({ strict: { p: 1, r: 1 / 3, f: 0.5 } });
  });

  it('adds nothing when the gold has no ids', () => {
    const plain = mentionScoring.parseGold({ documents: { d: { ann: ann('T1 | Disease 0 5 | fever') } } }).gold;
    const { metrics } = mentionScoring.score(plain, [], {}) as { metrics: Record<string, unknown> };
    expect(Object.keys(metrics).sort()).toEqual(['left', 'perType', 'right', 'strict']);
  });
});
