// The leaderboard's MENTION scoring counts gold and runs as sets too, whole (the family's
// `score`) and page by page (its streamed form over `gold_documents`), and says so when a
// gold standard or an offline run is uploaded with a mention given twice.
import { describe, expect, it } from 'vitest';
import { mentionScoring } from '../../../src/families/mention/scoring.ts';
import { mentionStreamed } from '../../../src/families/mention/streamed.ts';
import { streamedScoringOf } from '../../../src/leaderboard/streamed-families.ts';
import { streamedLeaderboard, type PageSources } from '../../../src/leaderboard/streamed-leaderboard.ts';

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

  it("the streamed leaderboard (gold read a page at a time) counts a server's and an offline run's repeats once", async () => {
    const parts = mentionStreamed.goldParts(GOLD);
    const loadedAt = new Date();
    const fenced = { doc: 'd1', serverId: 7, value: [{ start: 0, end: 13, text: 'breast cancer', type: 'Disease' }] };
    // In memory, by the repositories' shape: one document a page.
    const sources: PageSources = {
      gold: {
        goldHeading: async () => ({ documents: parts.length, items: 4, loadedAt, perDocument: true }),
        goldDocumentPage: async (_c, _t, after, limit) => parts.filter((p) => after === null || p.doc > after).slice(0, limit),
      },
      answers: {
        onlineAnswersOf: async (_c, _s, _t, docs) => (docs.includes('d1') ? [fenced, fenced] : []),
      },
    };
    const board = await streamedLeaderboard(
      sources,
      { challengeId: 1, task: 'MENTION', streamed: streamedScoringOf('MENTION')!, settings: {}, options: {}, pageSize: 1 },
      {
        servers: [{ run: 'T1_S1', team: 'team', server: 7 }],
        offline: [{ run: 'T1_R1', team: 'team', data: parsedRun.run }],
        consensus: null,
      },
    );
    for (const row of board.runs) expect((row.metrics as Metrics).strict, row.run).toMatchObject({ tp: 1, fp: 0, fn: 2 });
    expect(board.runs.map((r) => r.run).sort()).toEqual(['T1_R1', 'T1_S1']);
  });
});
