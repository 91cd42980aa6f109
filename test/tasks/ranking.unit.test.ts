import { describe, expect, it } from 'vitest';
import { fillRanks } from '../../src/tasks/ranking.ts';

describe('fillRanks', () => {
  it('keeps ranks when every item has one', () => {
    expect(fillRanks([{ rank: 3 }, { rank: 1, confidence: 0.1 }, { rank: 2 }])).toEqual({ ranks: [3, 1, 2], partial: false });
  });

  it('with neither rank nor confidence, ranks follow list order', () => {
    expect(fillRanks([{}, {}, {}])).toEqual({ ranks: [1, 2, 3], partial: false });
  });

  it('orders by confidence descending, ties by list order', () => {
    const items = [{ confidence: 0.5 }, { confidence: 0.9 }, { confidence: 0.5 }, { confidence: 1 }];
    expect(fillRanks(items).ranks).toEqual([3, 2, 4, 1]);
  });

  it('puts items without confidence after those with one, in list order', () => {
    expect(fillRanks([{}, { confidence: 0.2 }, {}, { confidence: 0.3 }]).ranks).toEqual([3, 2, 4, 1]);
  });

  it('numbers unranked items after the highest given rank and flags the mix', () => {
    expect(fillRanks([{ rank: 5 }, { confidence: 0.1 }, { rank: 2 }, { confidence: 0.9 }])).toEqual({ ranks: [5, 7, 2, 6], partial: true });
  });

  it('handles an empty list', () => {
    expect(fillRanks([])).toEqual({ ranks: [], partial: false });
  });
});
