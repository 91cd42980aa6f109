// The leaderboard's MENTION scoring counts gold and runs as sets too, whole (the family's
// `score`) and page by page (its streamed form over `gold_documents`), and says so when a
// gold standard or an offline run is uploaded with a mention given twice.
import { describe, expect, it } from 'vitest';
import { mentionScoring } from '../../../src/families/mention/scoring.ts';
import { mentionStreamed } from '../../../src/families/mention/streamed.ts';

const ann = (...lines: string[]) => lines.map((l) => l.replace(/ \| /g, '\t')).join('\n') + '\n';
// The worked example: 0–13 given twice, and 6–13; a second document without repeats.
const GOLD = {
  documents: {
    d1: { ann: ann('T1 | Disease 0 13 | breast cancer', 'T2 | Disease 0 13 | breast cancer', 'T3 | Disease 6 13 | cancer') },
    d2: { ann: ann('T1 | Chemical 0 7 | aspirin') },
  },
};
const RUN = { documents: { d1: { ann: ann('T1 | Disease 0 13 | breast cancer', 'T2 | Disease 0 13 | breast cancer') } } };

type Metrics = Record<string, { tp: number; fp: number; fn: number; r: number }>;

describe('MENTION leaderboard scoring with repeated mentions', () => {
  const parsedGold = mentionScoring.parseGold(GOLD);
  const parsedRun = mentionScoring.parseRun(RUN, 'rank,confidence');

  it('warns on the gold upload and on the offline run upload, naming the repeat', () => {
    expect(parsedGold.warnings).toHaveLength(1);
    expect(parsedGold.warnings[0]).toContain('gold standard: 1 mention(s) given more than once (same document, span and type)');
    expect(parsedGold.warnings[0]).toContain('document "d1" [0, 13) Disease (2 times)');
    expect(parsedRun.warnings).toHaveLength(1);
    expect(parsedRun.warnings[0]).toContain('run: 1 mention(s) given more than once');
  });

  it('scores them once, whole', () => {
    const metrics = mentionScoring.score(parsedGold.gold, parsedRun.run, {}).metrics as Metrics;
    expect(metrics.strict).toMatchObject({ tp: 1, fp: 0, fn: 2 });
    expect(metrics.strict.r).toBeCloseTo(1 / 3, 12);
  });

  it("scores a server's answers once (answers stored before the answer check dropped repeats)", () => {
    const value = [{ start: 0, end: 13, text: 'breast cancer', type: 'Disease' }];
    const online = mentionScoring.onlineRun([
      { doc: 'd1', value: [...value, ...value] },
      { doc: 'd2', value: [{ start: 0, end: 7, text: 'aspirin', type: 'Chemical' }] },
    ]);
    expect((mentionScoring.score(parsedGold.gold, online, {}).metrics as Metrics).strict).toMatchObject({ tp: 2, fp: 0, fn: 1 });
  });

  it('scores them once page by page, as whole', () => {
    const parts = mentionStreamed.goldParts(GOLD);
    const tally = mentionStreamed.empty();
    const byDoc = mentionStreamed.byDocument(parsedRun.run);
    // One document a page.
    for (const part of parts) mentionStreamed.add(tally, mentionStreamed.goldOf([part]), byDoc.get(part.doc) ?? [], {});
    const paged = mentionStreamed.finish(tally, {}).metrics;
    expect(paged).toEqual(mentionScoring.score(parsedGold.gold, parsedRun.run, {}).metrics);
    expect((paged as Metrics).strict).toMatchObject({ tp: 1, fp: 0, fn: 2 });
  });
});
