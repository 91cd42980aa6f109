// Setup checks in progress, shared by every API process through the database (migration
// 011): claimed before the server is called, released when the result is stored, and
// expired when the process that claimed one died before releasing it.
import type { Queryable } from '../../db/database.ts';

export interface RunningCheck {
  serverId: number;
  /** Which API process runs it (host, pid and an instance id), for the log and the 409. */
  process: string;
  startedAt: Date;
  expiresAt: Date;
}

interface Row {
  server_id: number;
  process: string;
  started_at: Date;
  expires_at: Date;
}

const toCheck = (r: Row): RunningCheck => ({
  serverId: r.server_id,
  process: r.process,
  startedAt: new Date(r.started_at),
  expiresAt: new Date(r.expires_at),
});

export type Claim = { claimed: true; check: RunningCheck } | { claimed: false; check: RunningCheck };

export class RunningCheckRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Takes the server's check for `process` unless another one runs (an unexpired row):
   * one statement, so two processes claiming at once cannot both win. Not claimed: the
   * check that runs instead.
   */
  async claim(serverId: number, process: string, ttlMs: number): Promise<Claim> {
    for (;;) {
      const won = await this.db.query<Row>(
        `insert into running_checks (server_id, process, started_at, expires_at)
         values ($1, $2, now(), now() + $3 * interval '1 millisecond')
         on conflict (server_id) do update set process = excluded.process, started_at = excluded.started_at, expires_at = excluded.expires_at
           where running_checks.expires_at <= now()
         returning server_id, process, started_at, expires_at`,
        [serverId, process, ttlMs],
      );
      if (won[0]) return { claimed: true, check: toCheck(won[0]) };
      const running = await this.running(serverId);
      if (running) return { claimed: false, check: running };
      // Released (or expired) between the two statements: claim again.
    }
  }

  /** The check running on the server now, if any (an expired row is not one). */
  async running(serverId: number): Promise<RunningCheck | null> {
    const rows = await this.db.query<Row>(
      'select server_id, process, started_at, expires_at from running_checks where server_id = $1 and expires_at > now()',
      [serverId],
    );
    return rows[0] ? toCheck(rows[0]) : null;
  }

  /** Ends the check `process` claimed (a row another process has since taken over stays). */
  async release(serverId: number, process: string): Promise<void> {
    await this.db.query('delete from running_checks where server_id = $1 and process = $2', [serverId, process]);
  }

  /** Ends every check of `process` (it is shutting down; the checks' results will not be stored by it). */
  async releaseAll(process: string): Promise<void> {
    await this.db.query('delete from running_checks where process = $1', [process]);
  }
}
