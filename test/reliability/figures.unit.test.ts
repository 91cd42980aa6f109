// Reliability figures against values computed by hand (see src/reliability/README.md).
import { describe, expect, it } from 'vitest';
import { percentile, reliabilityFigures, type AttemptRow } from '../../src/reliability/figures.ts';

const at = (startedAt: number, ms: number, outcome: string): AttemptRow => ({ startedAt, ms, outcome });

describe('reliabilityFigures', () => {
  it('computes every figure of a small history by hand', () => {
    // t=0 ok(100) | t=1000 timeout | t=2000 http | t=3000 ok(200) | t=10000 fault | t=11000 ok(300)
    // | t=20000 interrupted (ignored) | t=20500 released (a lease given back: ignored) | t=21000 connection (still failing at the end)
    const attempts = [
      at(0, 100, 'ok'),
      at(1000, 1000, 'timeout'),
      at(2000, 5, 'http'),
      at(3000, 200, 'ok'),
      at(10_000, 50, 'fault'),
      at(11_000, 300, 'ok'),
      at(20_000, 10, 'interrupted'),
      at(20_500, 400, 'released'),
      at(21_000, 3, 'connection'),
      { startedAt: 22_000, ms: null, outcome: null },
    ];
    const answers = [
      { annotations: 4, textBytes: 1000, ms: 100 },
      { annotations: 0, textBytes: 2000, ms: 200 },
      { annotations: 2, textBytes: 3000, ms: 300 },
    ];
    const f = reliabilityFigures(attempts, answers);
    // failure periods start at 1000, 10000 and 21000: MTBF = ((10000-1000) + (21000-10000)) / 2 = 10000
    // repairs: 1000 → end of ok at 3000+200 = 3200 (2200); 10000 → 11000+300 = 11300 (1300): MTTR = 1750
    expect(f).toEqual({
      attempts: 7,
      successes: 3,
      failures: 4,
      successRate: 0.4286,
      failurePeriods: 3,
      mtbfMs: 10_000,
      mttrMs: 1750,
      failingNow: true,
      artMs: 200,
      p50Ms: 200,
      p95Ms: 290,
      mad: 2, // (4 + 0 + 2) / 3
      mtdvBytesPerSecond: 10_000, // 6000 bytes / 0.6 s
      mtsaMs: 100, // 600 ms / 6 annotations
      answeredDocuments: 3,
    });
  });

  it('has no figures without data, and no MTBF/MTTR without failures', () => {
    expect(reliabilityFigures([], [])).toMatchObject({
      attempts: 0,
      successRate: null,
      mtbfMs: null,
      mttrMs: null,
      artMs: null,
      mad: null,
      mtdvBytesPerSecond: null,
      mtsaMs: null,
      failingNow: false,
    });
    const f = reliabilityFigures([at(0, 10, 'ok'), at(100, 30, 'ok')], [{ annotations: 0, textBytes: 10, ms: 10 }]);
    expect(f).toMatchObject({ successRate: 1, failurePeriods: 0, mtbfMs: null, mttrMs: null, artMs: 20, mad: 0, mtsaMs: null });
  });

  it('a history that starts failing opens a period at the first attempt; attempts are taken in time order', () => {
    const f = reliabilityFigures([at(5000, 100, 'ok'), at(0, 50, 'timeout'), at(1000, 20, 'http')], []);
    expect(f).toMatchObject({ failurePeriods: 1, mttrMs: 5100, mtbfMs: null, failingNow: false });
  });

  it('percentile interpolates like PostgreSQL percentile_cont', () => {
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([10, 20, 30, 40], 0.95)).toBeCloseTo(38.5);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});
