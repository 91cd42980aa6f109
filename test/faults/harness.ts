// Shared set-up of the fault suite: one meta-server with workers, a team, and helpers that
// register a misbehaving loopback server, start it and wait until its one article settles,
// then read what was recorded straight from the database and the BullMQ queue.
import { startFaultyServer, type Behaviour, type FaultyServer } from '../support/faulty-servers.ts';
import { waitFor, type TestMetaserver } from '../support/runtime.ts';

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
    this.token = (await this.ms.team(name)).token;
  }

  async challenge(slug: string, settings: Record<string, unknown>, articles: Array<{ id: string; text: string }>): Promise<void> {
    await this.ms.challenge(slug, { tasks: ['INT', 'MENTION'], serversPerTeam: 50, ...settings });
    await this.ms.articles(slug, articles);
  }

  async register(slug: string, name: string, url: string): Promise<number> {
    return (await this.ms.server(slug, this.token, { name, url, tasks: ['INT', 'MENTION'] })).id;
  }

  async faulty(behaviour: Behaviour, port?: number): Promise<FaultyServer> {
    const s = await startFaultyServer(behaviour, { port });
    this.servers.push(s);
    return s;
  }

  async start(serverId: number): Promise<void> {
    await this.ms.startServer(serverId, this.token);
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
