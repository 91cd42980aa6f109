// Offline runs: files a team uploads, at most MAX_OFFLINE_RUNS per team and task (and as
// many again in the post-challenge phase, numbered on), named like the BC II.5 runs
// (T<team id>_R<n>); and the organiser's baselines, named by the
// organiser, of no team and taking no team's slot (migration 024).
import type { Database } from '../db/database.ts';
import type { ColumnLayout } from '../scoring/index.ts';
import type { TaskName } from '../families/registry.ts';
import { PHASE_LOCK } from '../challenges/repository.ts';

export const MAX_OFFLINE_RUNS = 5;

export interface OfflineRun {
  id: number;
  /** null for a baseline (it belongs to no team). */
  teamId: number | null;
  /** The team's name; '' for a baseline. */
  team: string;
  task: TaskName;
  /** The team's slot, 1 to MAX_OFFLINE_RUNS; null for a baseline. */
  n: number | null;
  baseline: boolean;
  name: string;
  columns: ColumnLayout | null;
  body: string;
  uploadedAt: Date;
  /** A team's run uploaded after the challenge's official close (its post-challenge phase); never a baseline. */
  postChallenge: boolean;
}

interface OfflineRunRow {
  id: number;
  team_id: number | null;
  team: string;
  task: TaskName;
  n: number | null;
  baseline: boolean;
  name: string;
  columns: ColumnLayout | null;
  body: string;
  uploaded_at: Date;
  post_challenge: boolean;
}

/** A run without its body: what a reader that writes runs one at a time lists first. */
export type OfflineRunHead = Omit<OfflineRun, 'body'>;

const toHead = (r: Omit<OfflineRunRow, 'body'>): OfflineRunHead => ({
  id: r.id,
  teamId: r.team_id,
  team: r.team,
  task: r.task,
  n: r.n,
  baseline: r.baseline,
  name: r.name,
  columns: r.columns,
  uploadedAt: r.uploaded_at,
  postChallenge: r.post_challenge,
});

const toRun = (r: OfflineRunRow): OfflineRun => ({ ...toHead(r), body: r.body });

const offlineRunName = (teamId: number, n: number) => `T${teamId}_R${n}`;

export class RunsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores the next run of the team for the task, or returns 'limit' when it has
   * MAX_OFFLINE_RUNS already: in the post-challenge phase, MAX_OFFLINE_RUNS uploaded since
   * the official close, numbered after the official ones. The per-team advisory lock
   * serialises two uploads racing each other, so both cannot take the same number or pass
   * the limit together; the challenge's phase lock, shared, makes a close exact: a run is
   * stored before it (and is in the official board) or refused as 'closed'.
   */
  async add(
    challengeId: number,
    teamId: number,
    task: TaskName,
    columns: ColumnLayout | null,
    body: string,
  ): Promise<{ id: number; name: string; n: number } | 'limit' | 'closed'> {
    return await this.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock_shared($1, $2)', [PHASE_LOCK, challengeId]);
      await tx.query('select pg_advisory_xact_lock(72260004, $1)', [teamId]);
      const rows = await tx.query<{ phase: string; n: number; counted: number }>(
        `select c.phase, coalesce(max(r.n), 0)::int as n,
                count(r.id) filter (where c.phase <> 'post' or r.uploaded_at > c.official_closed_at)::int as counted
         from challenges c left join offline_runs r on r.challenge_id = c.id and r.team_id = $2 and r.task = $3
         where c.id = $1 group by c.phase`,
        [challengeId, teamId, task],
      );
      if (rows[0].phase === 'closed') return 'closed' as const;
      if (rows[0].counted >= MAX_OFFLINE_RUNS) return 'limit' as const;
      const n = rows[0].n + 1;
      const name = offlineRunName(teamId, n);
      const inserted = await tx.query<{ id: number }>(
        `insert into offline_runs (challenge_id, team_id, task, n, name, columns, body) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [challengeId, teamId, task, n, name, columns, body],
      );
      return { id: inserted[0].id, name, n };
    });
  }

  /**
   * Stores the organiser's baseline named `name`, replacing the task's baseline of that
   * name if there is one (the partial unique index of migration 024 is the conflict target).
   */
  async putBaseline(
    challengeId: number,
    task: TaskName,
    name: string,
    columns: ColumnLayout | null,
    body: string,
  ): Promise<{ id: number; name: string; replaced: boolean }> {
    const rows = await this.db.query<{ id: number; replaced: boolean }>(
      `insert into offline_runs (challenge_id, team_id, task, n, name, columns, body, baseline)
       values ($1, null, $2, null, $3, $4, $5, true)
       on conflict (challenge_id, task, name) where baseline
       do update set columns = excluded.columns, body = excluded.body, uploaded_at = now()
       returning id, (xmax <> 0) as replaced`,
      [challengeId, task, name, columns, body],
    );
    return { id: rows[0].id, name, replaced: rows[0].replaced };
  }

  /** Team runs by team and slot, then baselines by name. */
  async list(challengeId: number, task: TaskName): Promise<OfflineRun[]> {
    return (await this.select<OfflineRunRow>('r.body,', challengeId, task)).map(toRun);
  }

  /** The task's runs without their bodies, in list's order (the runs' export reads each body on its own). */
  async heads(challengeId: number, task: TaskName): Promise<OfflineRunHead[]> {
    return (await this.select<Omit<OfflineRunRow, 'body'>>('', challengeId, task)).map(toHead);
  }

  /** The task's runs, with the body when `body` names it; post_challenge: uploaded by a team after the official close. */
  private async select<Row>(body: '' | 'r.body,', challengeId: number, task: TaskName): Promise<Row[]> {
    return await this.db.query<Row>(
      `select r.id, r.team_id, coalesce(t.name, '') as team, r.task, r.n, r.baseline, r.name, r.columns, ${body} r.uploaded_at,
              coalesce(not r.baseline and r.uploaded_at > c.official_closed_at, false) as post_challenge
       from offline_runs r join challenges c on c.id = r.challenge_id left join teams t on t.id = r.team_id
       where r.challenge_id = $1 and r.task = $2 order by r.baseline, r.team_id, r.n, r.name`,
      [challengeId, task],
    );
  }

  /** One run's body as stored; null when there is no such run (any more). */
  async body(id: number): Promise<string | null> {
    const rows = await this.db.query<{ body: string }>('select body from offline_runs where id = $1', [id]);
    return rows[0]?.body ?? null;
  }
}
