// The official boards (migration 025): one per challenge and task, the scores API's answer
// with the default options as it was at the close, stored as written and read back as is.
// The close is the challenge's own `official_closed_at`, compared in the database (its
// microseconds would not survive a round trip through a JavaScript Date).
import type { Queryable } from '../db/database.ts';
import type { TaskName } from '../families/registry.ts';
import type { Leaderboard } from './leaderboard.ts';

export interface StoredOfficialBoard {
  board: Leaderboard;
  /** The close the board is of. */
  closedAt: Date;
  /** When it was computed: at the close, or later while the challenge stayed closed (gold or baselines loaded then). */
  takenAt: Date;
}

export class OfficialBoardRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores the task's official board of the challenge's close, replacing the one taken before. False when the challenge has no close to keep it for. */
  async put(challengeId: number, task: TaskName, board: Leaderboard): Promise<boolean> {
    const rows = await this.db.query(
      `insert into official_boards (challenge_id, task, closed_at, taken_at, board)
       select id, $2, official_closed_at, clock_timestamp(), $3 from challenges where id = $1 and official_closed_at is not null
       on conflict (challenge_id, task) do update set closed_at = excluded.closed_at, taken_at = excluded.taken_at, board = excluded.board
       returning 1`,
      [challengeId, task, JSON.stringify(board)],
    );
    return rows.length > 0;
  }

  /** The task's official board of the challenge's close; null when none was taken for it. */
  async get(challengeId: number, task: TaskName): Promise<StoredOfficialBoard | null> {
    const rows = await this.db.query<{ board: string; closed_at: Date; taken_at: Date }>(
      `select o.board, o.closed_at, o.taken_at from official_boards o join challenges c on c.id = o.challenge_id
       where o.challenge_id = $1 and o.task = $2 and o.closed_at = c.official_closed_at`,
      [challengeId, task],
    );
    const row = rows[0];
    return row ? { board: JSON.parse(row.board) as Leaderboard, closedAt: row.closed_at, takenAt: row.taken_at } : null;
  }
}
