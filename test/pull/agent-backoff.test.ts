// The agents' back-off while the meta-server cannot be reached or answers 5xx: from half a
// second, growing, never more than the documented 30 s — jitter included, whatever the
// options — for the Node agent's function and the Python agent's method alike. Computed, not
// waited for.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { META_BACKOFF, nextBackoff } from '../../src/agent/backoff.ts';

const PYTHON_AGENT = fileURLToPath(new URL('../../examples/python/pull_agent.py', import.meta.url));
const CAP_MS = 30_000;
const TRIES = 20;

/** The waits of `TRIES` failures in a row, each jittered by `random`. */
function waits(next: (previous: number) => number): number[] {
  const out: number[] = [];
  let delay = 0;
  for (let i = 0; i < TRIES; i++) out.push((delay = next(delay)));
  return out;
}

/** Grows by at least half each time until it reaches the cap's jitter band, then stays there. */
function expectCappedGrowth(delays: number[], firstMs: [number, number]): void {
  expect(delays[0]).toBeGreaterThanOrEqual(firstMs[0]);
  expect(delays[0]).toBeLessThanOrEqual(firstMs[1]);
  for (const d of delays) expect(d).toBeLessThanOrEqual(CAP_MS);
  const capped = delays.findIndex((d) => d >= CAP_MS * 0.75);
  expect(capped).toBeGreaterThanOrEqual(4); // 0.5 s doubling takes five tries at least to get there
  // At least 2 × 0.75 of the wait before (less a millisecond for rounding).
  for (let i = 1; i < capped; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] * 1.5 - 1);
  for (const d of delays.slice(capped)) expect(d).toBeGreaterThanOrEqual(CAP_MS * 0.75);
}

describe("the Node agent's back-off", () => {
  it('starts at half a second and doubles', () => {
    expect(waits((p) => nextBackoff(p, META_BACKOFF, () => 0.5)).slice(0, 8)).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('grows and never exceeds 30 s, whatever the jitter', () => {
    for (const r of [0, 0.25, 0.5, 0.999_999])
      expectCappedGrowth(
        waits((p) => nextBackoff(p, META_BACKOFF, () => r)),
        [375, 625],
      );
    const jittered = waits((p) => nextBackoff(p, META_BACKOFF));
    expectCappedGrowth(jittered, [375, 625]);
    // The top of the jitter reaches the cap itself, and stops there.
    expect(waits((p) => nextBackoff(p, META_BACKOFF, () => 0.999_999)).slice(-3)).toEqual([CAP_MS, CAP_MS, CAP_MS]);
  });

  it('keeps the 30 s cap even when the options ask for more, and a lower cap of their own', () => {
    expect(nextBackoff(25_000, { minMs: 500, maxMs: 120_000 }, () => 0.999_999)).toBe(CAP_MS);
    expect(Math.max(...waits((p) => nextBackoff(p, { minMs: 1000, maxMs: 600_000 }, () => 0.999_999)))).toBe(CAP_MS);
    expect(Math.max(...waits((p) => nextBackoff(p, { minMs: 250, maxMs: 5000 }, () => 0.999_999)))).toBe(5000);
  });
});

describe("the Python agent's back-off", () => {
  it('grows and never exceeds 30 s, whatever the jitter', () => {
    // The agent's own method, with the jitter pinned at both ends and left random.
    const script = `
import importlib.util, json, random, sys
spec = importlib.util.spec_from_file_location('pull_agent', sys.argv[1])
agent = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agent)
def run(r):
    if r is not None:
        random.random = lambda: r
    out, delay = [], 0
    for _ in range(${TRIES}):
        delay = agent.Agent.backoff(None, delay)
        out.append(round(delay * 1000, 3))
    return out
print(json.dumps([run(0.0), run(0.5), run(0.999999), run(None)]))
`;
    const [low, mid, high] = JSON.parse(execFileSync('python3', ['-c', script, PYTHON_AGENT], { encoding: 'utf8' })) as number[][];
    expect(mid.slice(0, 8)).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    for (const delays of [low, mid, high]) expectCappedGrowth(delays, [375, 625]);
    expect(high.slice(-3)).toEqual([CAP_MS, CAP_MS, CAP_MS]);
  });
});
