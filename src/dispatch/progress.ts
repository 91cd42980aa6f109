// Whether dispatch is progressing, for /healthz and /metrics: a called server that owes pairs
// and has had no attempt end for longer than its calls and retries can take (the challenge's
// deadline plus the longest back-off, plus the reconciler's interval and a minute) is stalled —
// work the queues lost, a worker stuck, or no worker process running at all. A database or
// Redis outage says itself elsewhere; this says what they leave behind.
import type { OwingServer, UnsettledRepository } from './unsettled-repository.ts';
import { PULL_PROTOCOL } from './annotators/registry.ts';
import { LoadingCache } from '../shared/loading-cache.ts';

export interface StalledServer {
  serverId: number;
  server: string;
  challenge: string;
  quietSeconds: number;
  limitSeconds: number;
}

export interface DispatchProgress {
  /** idle: nothing owed; progressing: every server owing pairs has had an attempt end recently; stalled: one has not. */
  state: 'idle' | 'progressing' | 'stalled';
  /** Called servers of running challenges that owe pairs. */
  owingServers: number;
  stalled: StalledServer[];
}

/** Added to what a server's calls and retries may take: the reconciler's pass that finds lost work, and a minute. */
const GRACE_SECONDS = 60;

export function judgeProgress(owing: readonly OwingServer[], reconcileIntervalMs: number): DispatchProgress {
  const grace = GRACE_SECONDS + reconcileIntervalMs / 1000;
  const stalled = owing
    .map((s) => ({ ...s, limitSeconds: Math.round(s.expectedSeconds + grace) }))
    .filter((s) => s.quietSeconds > s.limitSeconds)
    .map(({ serverId, server, challenge, quietSeconds, limitSeconds }) => ({
      serverId,
      server,
      challenge,
      quietSeconds: Math.round(quietSeconds),
      limitSeconds,
    }));
  return { state: owing.length === 0 ? 'idle' : stalled.length > 0 ? 'stalled' : 'progressing', owingServers: owing.length, stalled };
}

/**
 * Reads and judges dispatch's progress (one query, a few index lookups per server), kept for
 * keptMs: /healthz is polled by monitors and load balancers many times a second, and a
 * judgement in minutes does not need a query each time. /metrics shares it.
 */
export class ProgressReader {
  private readonly kept: LoadingCache<'progress', DispatchProgress>;

  constructor(
    private readonly unsettled: Pick<UnsettledRepository, 'owingServers'>,
    private readonly reconcileIntervalMs: number,
    keptMs: number,
  ) {
    this.kept = new LoadingCache(1, keptMs);
  }

  async read(): Promise<DispatchProgress> {
    const load = async () => judgeProgress(await this.unsettled.owingServers(PULL_PROTOCOL), this.reconcileIntervalMs);
    return (await this.kept.get('progress', load))!;
  }
}
