import { describe, expect, it } from 'vitest';
import { consensusAsResult, voteConsensus, type VoteInput } from '../../src/consensus/voting.ts';

const int = (serverId: number, items: Array<[string, number, number?]>): VoteInput => ({
  serverId,
  result: {
    INT: items.map(([accession, rank, confidence]) => (confidence === undefined ? { accession, rank } : { accession, rank, confidence })),
  },
});

describe('weighted voting: INT', () => {
  // Weights 2, 1, 1: total 4, default threshold 0.5 → an item needs support ≥ 2.
  const inputs = [
    int(1, [
      ['P11111', 1, 0.9],
      ['P22222', 2, 0.5],
    ]),
    int(2, [
      ['P22222', 1, 0.6],
      ['P33333', 2, 0.6],
    ]),
    int(3, [
      ['P11111', 2, 0.4],
      ['P33333', 1, 0.7],
      ['P44444', 3],
    ]),
  ];
  const weights = { 1: 2 };

  it('keeps items with support ≥ threshold · total and ranks by support, then mean reciprocal rank, then confidence', () => {
    const consensus = voteConsensus(inputs, { weights });
    expect(consensus.INT!.total).toBe(4);
    const items = consensus.INT!.items;
    // P11111: support 3, MRR (1 + 1/2)/2 = 0.75, mean confidence 0.65.
    // P22222: support 3, MRR 0.75, mean confidence 0.55 → after P11111.
    // P33333: support 2 (= threshold · total, kept), MRR 0.75.
    // P44444: support 1 → dropped.
    expect(items.map((i) => [i.accession, i.rank, i.support])).toEqual([
      ['P11111', 1, 3],
      ['P22222', 2, 3],
      ['P33333', 3, 2],
    ]);
    expect(items[0].share).toBe(0.75);
    expect(items[0].confidence).toBe(0.75);
    expect(items[0].meanReciprocalRank).toBe(0.75);
    expect(items[0].meanConfidence).toBeCloseTo(0.65, 12);
    expect(items[1].meanConfidence).toBeCloseTo(0.55, 12);
    expect(items[0].servers).toEqual([
      { serverId: 1, rank: 1, confidence: 0.9 },
      { serverId: 3, rank: 2, confidence: 0.4 },
    ]);
    expect(items[2].share).toBe(0.5);
  });

  it('breaks support ties by mean reciprocal rank, then by accession', () => {
    const consensus = voteConsensus(
      [
        int(1, [
          ['B', 1],
          ['A', 2],
          ['C', 3],
        ]),
        int(2, [
          ['C', 1],
          ['A', 2],
          ['B', 3],
        ]),
      ],
      { threshold: 1 },
    );
    // All have support 2; MRR: B (1 + 1/3)/2, C the same, A 1/2 → B, C by id, then A.
    expect(consensus.INT!.items.map((i) => i.accession)).toEqual(['B', 'C', 'A']);
    expect(consensus.INT!.items[2].meanConfidence).toBeUndefined();
  });

  it('applies threshold edge cases: 0 keeps everything, 1 needs every answering server', () => {
    expect(voteConsensus(inputs, { weights, threshold: 0 }).INT!.items).toHaveLength(4);
    expect(voteConsensus(inputs, { weights, threshold: 1 }).INT!.items).toEqual([]);
    // Support 3 of 4 passes 0.75 exactly, and fails just above it.
    expect(voteConsensus(inputs, { weights, threshold: 0.75 }).INT!.items.map((i) => i.accession)).toEqual(['P11111', 'P22222']);
    expect(voteConsensus(inputs, { weights, threshold: 0.7500001 }).INT!.items).toEqual([]);
  });

  it('tolerates floating-point rounding at the threshold', () => {
    // Five servers of weight 0.3: total 1.5 and 0.4 · 1.5 = 0.6000000000000001 > 0.3 + 0.3.
    const answers = [1, 2, 3, 4, 5].map((id) => int(id, id <= 2 ? [['A', 1]] : [['B', 1]]));
    const consensus = voteConsensus(answers, { weights: { 1: 0.3, 2: 0.3, 3: 0.3, 4: 0.3, 5: 0.3 }, threshold: 0.4 });
    expect(consensus.INT!.items.map((i) => i.accession)).toEqual(['B', 'A']);
  });

  it('treats a weight-0 server as not chosen and counts only servers that answered the task', () => {
    const withSilent: VoteInput[] = [
      ...inputs,
      { serverId: 4, result: { ACT: { relevant: true, confidence: 1 } } },
      int(5, [['P44444', 1]]),
    ];
    const consensus = voteConsensus(withSilent, { weights: { ...weights, 5: 0 } });
    expect(consensus.INT!.total).toBe(4);
    expect(consensus.INT!.items.map((i) => i.accession)).toEqual(['P11111', 'P22222', 'P33333']);
  });

  it('rejects negative weights and thresholds outside [0, 1]', () => {
    expect(() => voteConsensus(inputs, { weights: { 1: -1 } })).toThrow(RangeError);
    expect(() => voteConsensus(inputs, { threshold: 1.5 })).toThrow(RangeError);
  });

  it('needs minServers answers for a task', () => {
    expect(voteConsensus([inputs[0]])).toEqual({});
    expect(voteConsensus([inputs[0]], { minServers: 1 }).INT!.items).toHaveLength(2);
  });
});

describe('weighted voting: IPT', () => {
  it('votes on unordered pairs', () => {
    const consensus = voteConsensus([
      {
        serverId: 1,
        result: {
          IPT: [
            { a: 'A', b: 'B', rank: 1, confidence: 0.5 },
            { a: 'A', b: 'C', rank: 2 },
          ],
        },
      },
      { serverId: 2, result: { IPT: [{ a: 'A', b: 'B', rank: 2, confidence: 0.7 }] } },
    ]);
    expect(consensus.IPT!.items).toHaveLength(2);
    expect(consensus.IPT!.items[0]).toMatchObject({
      a: 'A',
      b: 'B',
      rank: 1,
      support: 2,
      share: 1,
      meanReciprocalRank: 0.75,
      meanConfidence: 0.6,
    });
    expect(consensus.IPT!.items[1]).toMatchObject({ a: 'A', b: 'C', rank: 2, support: 1, share: 0.5 });
  });
});

describe('weighted voting: ACT', () => {
  const act = (serverId: number, relevant: boolean, confidence: number): VoteInput => ({
    serverId,
    result: { ACT: { relevant, confidence } },
  });

  it('lets the heavier side win with its share as confidence', () => {
    const consensus = voteConsensus([act(1, true, 0.9), act(2, false, 0.8), act(3, false, 0.6)], { weights: { 3: 2 } });
    expect(consensus.ACT).toEqual({
      relevant: false,
      confidence: 0.75,
      support: { relevant: 1, irrelevant: 3 },
      total: 4,
      servers: [
        { serverId: 1, relevant: true, confidence: 0.9 },
        { serverId: 2, relevant: false, confidence: 0.8 },
        { serverId: 3, relevant: false, confidence: 0.6 },
      ],
    });
  });

  it('decides a tie as relevant with confidence 0.5', () => {
    const consensus = voteConsensus([act(1, true, 0.9), act(2, false, 0.99)]);
    expect(consensus.ACT).toMatchObject({ relevant: true, confidence: 0.5 });
  });
});

describe('weighted voting: MENTION', () => {
  it('votes on (start, end, type) spans and returns them in text order', () => {
    const m = (start: number, end: number, type?: string, confidence?: number) => ({
      start,
      end,
      text: 'x'.repeat(end - start),
      ...(type ? { type } : {}),
      ...(confidence ? { confidence } : {}),
    });
    const consensus = voteConsensus(
      [
        { serverId: 1, result: { MENTION: [m(10, 13, 'Protein', 0.8), m(0, 4, 'Protein'), m(20, 22)] } },
        { serverId: 2, result: { MENTION: [m(10, 13, 'Protein', 0.6), m(0, 4, 'Gene'), m(20, 22)] } },
        { serverId: 3, result: { MENTION: [m(0, 4, 'Protein'), m(10, 12, 'Protein')] } },
      ],
      { threshold: 0.6 },
    );
    // total 3; need ≥ 1.8: (0,4,Protein) 2, (10,13,Protein) 2, (20,22,untyped) 2; the rest 1.
    expect(consensus.MENTION!.items.map((i) => [i.start, i.end, i.type, i.support])).toEqual([
      [0, 4, 'Protein', 2],
      [10, 13, 'Protein', 2],
      [20, 22, undefined, 2],
    ]);
    expect(consensus.MENTION!.items[1].meanConfidence).toBeCloseTo(0.7, 12);
    expect(consensusAsResult(consensus).MENTION![2]).toEqual({ start: 20, end: 22, text: 'xx', confidence: 2 / 3 });
  });
});
