// Shared set-up of the fault suite: one meta-server with workers, a team, and helpers that
// register a misbehaving loopback server, start it and wait until its one article settles,
// then read what was recorded straight from the database and the BullMQ queue.
import { expect } from 'vitest';
import { startFaultyServer, type Behaviour, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, waitFor, type TestMetaserver } from '../support/runtime.ts';

export interface Settled {
  state: string;
  lastOutcome: string | null;
  outcomes: string[];
  details: string[];
  answers: number;
  answerAttempt: number | null;
}

export class FaultBench {
  readonly servers: FaultyServer[] = [];
  token = '';

  constructor(readonly ms: TestMetaserver) {}

  async team(name: string): Promise<void> {
    const res = await this.ms.request('POST', '/api/teams', { name, contact: 'faults@example.org' });
    expect(res.status).toBe(201);
    this.token = res.body.token;
  }

  async challenge(slug: string, settings: Record<string, unknown>, articles: Array<{ id: string; text: string }>): Promise<void> {
    const c = await this.ms.request(
      'POST',
      '/api/challenges',
      { slug, name: slug, tasks: ['INT', 'MENTION'], serversPerTeam: 50, ...settings },
      ADMIN_TOKEN,
    );
    expect(c.status).toBe(201);
    expect((await this.ms.request('POST', `/api/challenges/${slug}/articles`, { articles }, ADMIN_TOKEN)).status).toBe(202);
  }

  async register(slug: string, name: string, url: string): Promise<number> {
    const res = await this.ms.request('POST', `/api/challenges/${slug}/servers`, { name, url, tasks: ['INT', 'MENTION'] }, this.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  }

  async faulty(behaviour: Behaviour, port?: number): Promise<FaultyServer> {
    const s = await startFaultyServer(behaviour, { port });
    this.servers.push(s);
    return s;
  }

  async start(serverId: number): Promise<void> {
    expect((await this.ms.request('POST', `/api/servers/${serverId}/start`, undefined, this.token)).status).toBe(200);
  }

  /** Waits until every delivery of the server is done or failed AND its queue holds no job that could still run. */
  async settled(serverId: number, articles = 1, timeoutMs = 30_000): Promise<Settled> {
    const db = this.ms.database.db;
    await waitFor(
      `server ${serverId} to settle`,
      async () => {
        const rows = await db.query<{ n: number }>(
          `select count(*)::int as n from deliveries where server_id = $1 and state in ('done', 'failed')`,
          [serverId],
        );
        if (rows[0].n !== articles) return undefined;
        const c = await this.ms.ctx.dispatch.queues.counts(serverId);
        return c.active + c.waiting + c.delayed + c.prioritized === 0 ? true : undefined;
      },
      timeoutMs,
    );
    const d = (
      await db.query<{ state: string; last_outcome: string | null }>('select state, last_outcome from deliveries where server_id = $1', [
        serverId,
      ])
    )[0];
    const attempts = await db.query<{ outcome: string; detail: string | null }>(
      'select outcome, detail from attempts where server_id = $1 order by n',
      [serverId],
    );
    const answers = await db.query<{ attempt_n: number }>('select attempt_n from answers where server_id = $1', [serverId]);
    return {
      state: d.state,
      lastOutcome: d.last_outcome,
      outcomes: attempts.map((a) => a.outcome),
      details: attempts.map((a) => a.detail ?? ''),
      answers: answers.length,
      answerAttempt: answers[0]?.attempt_n ?? null,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
  }
}
