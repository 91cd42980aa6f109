// The leases held by pull servers' agents, in Redis beside the queues they come from: one
// hash per lease (what was leased, when, until when), an index of all leases by deadline
// (the sweeper finds the expired ones there) and one of each server's (how many it holds).
// A lease is settled exactly once: whoever removes it from the deadline index first —
// its answer, its failure, its release or the sweeper — settles it; the others find it gone.
import { randomBytes } from 'node:crypto';
import { hashTagged, type RedisConnection } from '../queue/redis-connection.ts';

export type LeaseKind = 'job' | 'setup';

export interface LeaseRecord {
  id: string;
  kind: LeaseKind;
  serverId: number;
  /** The BullMQ job the lease holds (kind job); '' for the setup article. */
  jobId: string;
  articleId: string;
  /** The attempt's number (kind job). */
  n: number;
  startedAt: number;
  deadline: number;
  bytesSent: number;
  /** The liveness window of a lease taken with keep-alive (ms; 0: none, it lives to its deadline). */
  keepAliveMs: number;
  /** The server's team: who may settle the lease (0 in a lease saved before it was kept). */
  teamId: number;
}

/** What an agent last said of its own annotation server (renew's `localServer`). */
export interface LocalServerReport {
  state: 'up' | 'down';
  detail: string;
  at: number;
}

/** 24 random bytes, URL-safe: a lease id cannot be guessed, and it is the job's lock token too. */
export function newLeaseId(): string {
  return randomBytes(24).toString('base64url');
}

/** The shape of a lease id (32 characters of base64url), checked before anything is looked up. */
export const LEASE_ID_PATTERN = '^[A-Za-z0-9_-]{32}$';

/** KEYS: deadline index, the server's index, the lease hash; ARGV: lease id. 1 when this call took the lease. */
const CLAIM_SCRIPT = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('DEL', KEYS[3])
  return 1
end
return 0`;

/**
 * Reads the lease and, when the caller may settle it (ARGV[2]: its team, '' for the
 * organiser), claims it as CLAIM_SCRIPT does: {1, fields} when this call took it, {0, fields}
 * when not (another team's, or a lease kept without its team: the caller looks and claims),
 * nil when there is none. KEYS: deadline index, the lease hash; ARGV[3] the servers' index
 * prefix (in the hash's slot). An answer's two round trips (read, claim) in one.
 */
const READ_AND_CLAIM_SCRIPT = `
local h = redis.call('HGETALL', KEYS[2])
if #h == 0 then return nil end
local f = {}
for i = 1, #h, 2 do f[h[i]] = h[i + 1] end
if (ARGV[2] ~= '' and f['teamId'] ~= ARGV[2]) or redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return {0, h} end
redis.call('ZREM', ARGV[3] .. f['serverId'] .. ':held', ARGV[1])
redis.call('DEL', KEYS[2])
return {1, h}`;

/** As CLAIM_SCRIPT, but only while the lease's index entry is due (ARGV[2], ms): a lease renewed meanwhile is left alone. */
const CLAIM_DUE_SCRIPT = `
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('DEL', KEYS[3])
  return 1
end
return 0`;

/**
 * A lease saved: its hash (kept ARGV[1] ms), its entry in the deadline index (due ARGV[2]) and
 * in the server's index (ARGV[3]), the server's last lease (ARGV[4]). ARGV[5] is the lease id,
 * then the hash's field/value pairs. One command instead of a MULTI of seven: this is on
 * every lease's way out.
 */
const SAVE_SCRIPT = `
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5])
redis.call('HSET', KEYS[4], 'leased', ARGV[4])
return 1`;

/** A lease as its hash holds it; null when there is none. */
function recordOf(h: Record<string, string>): LeaseRecord | null {
  if (!h.id) return null;
  return {
    id: h.id,
    kind: h.kind as LeaseKind,
    serverId: Number(h.serverId),
    jobId: h.jobId ?? '',
    articleId: h.articleId ?? '',
    n: Number(h.n),
    startedAt: Number(h.startedAt),
    deadline: Number(h.deadline),
    bytesSent: Number(h.bytesSent),
    keepAliveMs: Number(h.keepAliveMs ?? 0),
    teamId: Number(h.teamId ?? 0),
  };
}

/** When a lease is next due in the index: its deadline, or sooner the end of its liveness window. */
function dueAt(r: Pick<LeaseRecord, 'deadline' | 'keepAliveMs'>, from: number): number {
  return r.keepAliveMs > 0 ? Math.min(r.deadline, from + r.keepAliveMs) : r.deadline;
}

/** How long a lease's hash outlives its deadline: a process down that long finds the lease in the index still. */
const KEEP_AFTER_DEADLINE_MS = 24 * 60 * 60 * 1000;

export class LeaseRecords {
  /**
   * Where the keys begin. In a cluster every lease key shares one hash tag: a lease's save
   * (MULTI) and claim (CLAIM_SCRIPT) touch the deadline index of all leases, the server's
   * index and the lease, which must be in one slot; the records are small, one slot holds them.
   */
  private readonly base: string;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    cluster = false,
  ) {
    this.base = cluster ? `${prefix}:${hashTagged('leases', true)}` : prefix;
  }

  private readonly index = () => `${this.base}:leases`;
  private readonly held = (serverId: number) => `${this.base}:pull:${serverId}:held`;
  /** Where held() begins, for READ_AND_CLAIM_SCRIPT (which learns the server from the lease). */
  private readonly heldPrefix = () => `${this.base}:pull:`;
  private readonly lease = (id: string) => `${this.base}:lease:${id}`;
  private readonly seen = (serverId: number) => `${this.base}:pull:${serverId}:seen`;
  private readonly setup = (serverId: number) => `${this.base}:pull:${serverId}:setup`;

  async save(r: LeaseRecord): Promise<void> {
    const fields: Record<keyof LeaseRecord, string | number> = { ...r };
    await this.redis.eval(
      SAVE_SCRIPT,
      4,
      this.lease(r.id),
      this.index(),
      this.held(r.serverId),
      this.seen(r.serverId),
      r.deadline - Date.now() + KEEP_AFTER_DEADLINE_MS,
      dueAt(r, r.startedAt),
      r.deadline,
      r.startedAt,
      r.id,
      ...Object.entries(fields).flat(),
    );
  }

  async peek(id: string): Promise<LeaseRecord | null> {
    return recordOf(await this.redis.hgetall(this.lease(id)));
  }

  /**
   * The lease, claimed by this call when `teamId` may settle it (null: the organiser, who may
   * settle any): `claimed` false when it is another team's or kept without its team — look,
   * then claim(). Null when there is no such lease.
   */
  async readAndClaim(id: string, teamId: number | null): Promise<{ lease: LeaseRecord; claimed: boolean } | null> {
    const reply = (await this.redis.eval(
      READ_AND_CLAIM_SCRIPT,
      2,
      this.index(),
      this.lease(id),
      id,
      teamId === null ? '' : String(teamId),
      this.heldPrefix(),
    )) as [number, string[]] | null;
    if (!reply) return null;
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < reply[1].length; i += 2) fields[reply[1][i]] = reply[1][i + 1];
    const lease = recordOf(fields);
    return lease && { lease, claimed: reply[0] === 1 };
  }

  /** True when this call took the lease off the books (so it alone settles it). */
  async claim(r: Pick<LeaseRecord, 'id' | 'serverId'>): Promise<boolean> {
    return (await this.redis.eval(CLAIM_SCRIPT, 3, this.index(), this.held(r.serverId), this.lease(r.id), r.id)) === 1;
  }

  /** As claim, but only while the lease is due at `now` (the sweeper's claim: a lease renewed since it was listed stays held). */
  async claimDue(r: Pick<LeaseRecord, 'id' | 'serverId'>, now: number): Promise<boolean> {
    return (await this.redis.eval(CLAIM_DUE_SCRIPT, 3, this.index(), this.held(r.serverId), this.lease(r.id), r.id, now)) === 1;
  }

  /**
   * Moves the liveness window of the server's leases among `ids` that were taken with
   * keep-alive to now + their window (never past their deadline); the ids still held come
   * back. ZADD XX never brings back a lease settled meanwhile.
   */
  async renew(serverId: number, ids: string[]): Promise<string[]> {
    const now = Date.now();
    const leases = await Promise.all(ids.map((id) => this.peek(id)));
    const mine = leases.filter((l): l is LeaseRecord => l !== null && l.serverId === serverId);
    if (mine.length === 0) return [];
    const multi = this.redis.multi();
    for (const l of mine) {
      if (l.keepAliveMs > 0) multi.zadd(this.index(), 'XX', dueAt(l, now), l.id);
      multi.zscore(this.index(), l.id);
    }
    const results = (await multi.exec()) ?? [];
    const held: string[] = [];
    let at = 0;
    for (const l of mine) {
      if (l.keepAliveMs > 0) at++; // the ZADD's reply
      if (results[at++]?.[1] != null) held.push(l.id);
    }
    return held;
  }

  /** An agent's word on its own annotation server (kept with what the pages show of its agents). */
  async reportLocal(serverId: number, report: LocalServerReport): Promise<void> {
    await this.redis.hset(this.seen(serverId), { local: report.state, localDetail: report.detail, localAt: String(report.at) });
  }

  /** Ids of leases whose deadline has passed, oldest first. */
  async expired(now: number, limit = 100): Promise<string[]> {
    return await this.redis.zrangebyscore(this.index(), '-inf', now, 'LIMIT', 0, limit);
  }

  /** An agent asked for work now (whether or not it got some). */
  async polled(serverId: number): Promise<void> {
    await this.redis.hset(this.seen(serverId), 'polled', String(Date.now()));
  }

  /** What the pages show of a pull server's agents. */
  async agentStatus(serverId: number): Promise<{
    lastPollAt: number | null;
    lastLeaseAt: number | null;
    leasesHeld: number;
    local: LocalServerReport | null;
  }> {
    const [seen, held] = await Promise.all([this.redis.hgetall(this.seen(serverId)), this.redis.zcard(this.held(serverId))]);
    const state = seen.local;
    const local: LocalServerReport | null =
      state === 'up' || state === 'down' ? { state, detail: seen.localDetail ?? '', at: Number(seen.localAt) } : null;
    return {
      lastPollAt: seen.polled ? Number(seen.polled) : null,
      lastLeaseAt: seen.leased ? Number(seen.leased) : null,
      leasesHeld: held,
      local,
    };
  }

  /** Takes the server's setup article for one lease at a time: true when this lease got it. */
  async takeSetup(serverId: number, leaseId: string, untilMs: number): Promise<boolean> {
    return (await this.redis.set(this.setup(serverId), leaseId, 'PX', Math.max(1, untilMs - Date.now()), 'NX')) === 'OK';
  }

  async dropSetup(serverId: number): Promise<void> {
    await this.redis.del(this.setup(serverId));
  }
}
