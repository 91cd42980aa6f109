import { transactional, type Queryable } from '../db/database.ts';
import type { TaskName } from '../families/registry.ts';
import { DEFAULT_PROTOCOL, type ServerProtocolName } from '../dispatch/annotators/registry.ts';

export type ServerState = 'active' | 'paused';

export interface ServerCheck {
  ok: boolean;
  reachable: boolean;
  at: string;
  ms: number;
  outcome: string;
  detail?: string;
  /** The first errors and warnings (at most 20 of each; see detail and warningCount for how many there were). */
  errors: Array<{ path: string; message: string }>;
  warnings: Array<{ path: string; message: string }>;
  warningCount?: number;
}

export interface AnnotationServer {
  id: number;
  challengeId: number;
  challenge: string;
  teamId: number;
  team: string;
  name: string;
  url: string;
  tasks: TaskName[];
  method: string;
  /** The annotator protocol it speaks (dispatch/annotators/registry.ts). */
  protocol: ServerProtocolName;
  concurrency: number;
  /** Articles sent together in one call (1: one per call); see dispatch/batch-caller.ts. */
  batchSize: number;
  sendMetadata: boolean;
  state: ServerState;
  check: ServerCheck | null;
  createdAt: Date;
  /** The name its answers are published under (T<team id>_S<n>), given at registration and never changed. */
  runName: string;
}

interface ServerRow {
  id: number;
  challenge_id: number;
  challenge: string;
  team_id: number;
  team: string;
  name: string;
  url: string;
  tasks: TaskName[];
  method: string;
  protocol: ServerProtocolName;
  concurrency: number;
  batch_size: number;
  send_metadata: boolean;
  state: ServerState;
  last_check: ServerCheck | null;
  created_at: Date;
  run_n: number;
}

const toServer = (r: ServerRow): AnnotationServer => ({
  id: r.id,
  challengeId: r.challenge_id,
  challenge: r.challenge,
  teamId: r.team_id,
  team: r.team,
  name: r.name,
  url: r.url,
  tasks: r.tasks,
  method: r.method,
  protocol: r.protocol,
  concurrency: r.concurrency,
  batchSize: r.batch_size,
  sendMetadata: r.send_metadata,
  state: r.state,
  check: r.last_check,
  createdAt: r.created_at,
  runName: `T${r.team_id}_S${r.run_n}`,
});

const SELECT = `select s.*, c.slug as challenge, t.name as team
  from servers s join challenges c on c.id = s.challenge_id join teams t on t.id = s.team_id`;

export interface NewServer {
  challengeId: number;
  teamId: number;
  name: string;
  url: string;
  tasks: TaskName[];
  method: string;
  /** XML-RPC when not given. */
  protocol?: ServerProtocolName;
  concurrency: number;
  /** 1 when not given. */
  batchSize?: number;
  sendMetadata: boolean;
}

/** PostgreSQL's error code for a row still referenced by a foreign key. */
const FOREIGN_KEY_VIOLATION = '23503';

/** Deleted, or kept because another record still refers to the server (the table, when the database names it). */
export type ServerDeletion = { deleted: true } | { deleted: false; referencedFrom: string | null };

export class ServerRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Inserts unless the team already has `limit` servers in the challenge ('limit') or one
   * of the same name ('duplicate'). Call it inside a transaction: the per-team advisory lock
   * makes two registrations racing each other count one after the other. The run number
   * comes from the team's counter (migration 006), taken only by a server actually inserted.
   */
  /** create, in a transaction of its own (a registration). */
  async register(s: NewServer, limit: number): Promise<AnnotationServer | 'limit' | 'duplicate'> {
    return await transactional(this.db).transaction(async (tx) => await new ServerRepository(tx).create(s, limit));
  }

  /**
   * Deletes the server with its deliveries, attempts and answers, all or nothing: if
   * another record still needs the server (say, a test-suite run), the foreign-key error
   * rolls everything back and the answer names the table that holds the reference.
   */
  async deleteWithHistory(id: number): Promise<ServerDeletion> {
    try {
      await transactional(this.db).transaction(async (tx) => {
        for (const table of ['deliveries', 'attempts', 'answers']) await tx.query(`delete from ${table} where server_id = $1`, [id]);
        await tx.query('delete from servers where id = $1', [id]);
      });
    } catch (err) {
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION)
        return { deleted: false, referencedFrom: (err as { table?: string }).table ?? null };
      throw err;
    }
    return { deleted: true };
  }

  async create(s: NewServer, limit: number): Promise<AnnotationServer | 'limit' | 'duplicate'> {
    await this.db.query('select pg_advisory_xact_lock(72260002, $1)', [s.teamId]);
    const same = await this.db.query('select 1 from servers where challenge_id = $1 and team_id = $2 and name = $3', [
      s.challengeId,
      s.teamId,
      s.name,
    ]);
    if (same.length > 0) return 'duplicate';
    const rows = await this.db.query<{ id: number }>(
      `insert into servers (challenge_id, team_id, name, url, tasks, method, concurrency, send_metadata, protocol, batch_size)
       select $1, $2, $3, $4, $5, $6, $7, $8, $10, $11
       where (select count(*) from servers where challenge_id = $1 and team_id = $2) < $9
       returning id`,
      [
        s.challengeId,
        s.teamId,
        s.name,
        s.url,
        s.tasks,
        s.method,
        s.concurrency,
        s.sendMetadata,
        limit,
        s.protocol ?? DEFAULT_PROTOCOL,
        s.batchSize ?? 1,
      ],
    );
    return rows[0] ? (await this.byId(rows[0].id))! : 'limit';
  }

  async byId(id: number): Promise<AnnotationServer | null> {
    const rows = await this.db.query<ServerRow>(`${SELECT} where s.id = $1`, [id]);
    return rows[0] ? toServer(rows[0]) : null;
  }

  async listByChallenge(challengeId: number, teamId?: number): Promise<AnnotationServer[]> {
    const rows =
      teamId === undefined
        ? await this.db.query<ServerRow>(`${SELECT} where s.challenge_id = $1 order by s.id`, [challengeId])
        : await this.db.query<ServerRow>(`${SELECT} where s.challenge_id = $1 and s.team_id = $2 order by s.id`, [challengeId, teamId]);
    return rows.map(toServer);
  }

  /** Every server a worker process should have a queue consumer for. */
  async listAll(): Promise<AnnotationServer[]> {
    return (await this.db.query<ServerRow>(`${SELECT} order by s.id`)).map(toServer);
  }

  async setState(id: number, state: ServerState): Promise<void> {
    await this.db.query('update servers set state = $2 where id = $1', [id, state]);
  }

  async saveCheck(id: number, check: ServerCheck): Promise<void> {
    await this.db.query('update servers set last_check = $2 where id = $1', [id, JSON.stringify(check)]);
  }

  async teamHasServerIn(teamId: number, challengeId: number): Promise<boolean> {
    return (
      (await this.db.query('select 1 from servers where team_id = $1 and challenge_id = $2 limit 1', [teamId, challengeId])).length > 0
    );
  }
}
