// Which articles of a challenge are scored and which are background (migration 016): every
// article goes to every server alike; only the scored ones count on the leaderboards. Only
// the organiser reads or changes this: nothing a server or a team is shown carries it.
import type { Database, Queryable } from '../db/database.ts';

/** How many articles of a challenge are scored and how many are background. */
export interface ScoredCounts {
  articles: number;
  scored: number;
  background: number;
}

/**
 * A change of the marks: `exactly` (the scored ones; every other article becomes background),
 * or `scored` and `background` (those named change, the others stay as they are).
 */
export type ScoredChange = { exactly: readonly string[] } | { scored?: readonly string[]; background?: readonly string[] };

/** The marks after a change, and how many articles it moved. */
export interface ScoredChangeResult extends ScoredCounts {
  changed: number;
}

/** Ids named that no article of the challenge has: the change was refused, nothing changed. */
export class UnknownArticlesError extends Error {
  constructor(readonly unknown: string[]) {
    super(`${unknown.length} unknown organiser id(s)`);
    this.name = this.constructor.name;
  }
}

/** The leaderboards are published: what they score is settled until the organiser withdraws them. */
export class LeaderboardsPublishedError extends Error {
  constructor() {
    super('the leaderboards are published');
    this.name = this.constructor.name;
  }
}

export class ScoredArticleRepository {
  constructor(private readonly db: Database) {}

  async counts(challengeId: number, db: Queryable = this.db): Promise<ScoredCounts> {
    const rows = await db.query<{ articles: number; background: number }>(
      `select (select count(*)::int from articles where challenge_id = $1) as articles,
              (select count(*)::int from articles where challenge_id = $1 and not scored) as background`,
      [challengeId],
    );
    const { articles, background } = rows[0];
    return { articles, scored: articles - background, background };
  }

  /** Which of the organiser ids are background articles of the challenge (the others are scored, or no article). */
  async backgroundIds(challengeId: number, organiserIds: readonly string[]): Promise<Set<string>> {
    if (organiserIds.length === 0) return new Set();
    const rows = await this.db.query<{ organiser_id: string }>(
      'select organiser_id from articles where challenge_id = $1 and not scored and organiser_id = any($2::text[])',
      [challengeId, [...organiserIds]],
    );
    return new Set(rows.map((r) => r.organiser_id));
  }

  /** The organiser ids of the challenge's articles of one kind, in id order (for the organiser to keep or edit). */
  async ids(challengeId: number, kind: 'scored' | 'background'): Promise<string[]> {
    const rows = await this.db.query<{ organiser_id: string }>(
      `select organiser_id from articles where challenge_id = $1 and organiser_id is not null and scored = $2 order by organiser_id`,
      [challengeId, kind === 'scored'],
    );
    return rows.map((r) => r.organiser_id);
  }

  /**
   * Applies the change in one transaction: an id no article of the challenge has refuses it
   * whole (UnknownArticlesError), and so do published leaderboards (LeaderboardsPublishedError,
   * read under the same lock as the change): nothing changed.
   */
  async change(challengeId: number, change: ScoredChange): Promise<ScoredChangeResult> {
    return await this.db.transaction(async (tx) => {
      // One change at a time per challenge, and the publication read under its lock.
      const challenge = await tx.query<{ leaderboard_published: boolean }>(
        'select leaderboard_published from challenges where id = $1 for update',
        [challengeId],
      );
      if (challenge[0]?.leaderboard_published) throw new LeaderboardsPublishedError();
      const named = 'exactly' in change ? [...change.exactly] : [...(change.scored ?? []), ...(change.background ?? [])];
      const unknown = await this.unknownIds(tx, challengeId, named);
      if (unknown.length > 0) throw new UnknownArticlesError(unknown);
      let changed = 0;
      if ('exactly' in change) {
        changed += await this.setScored(tx, challengeId, change.exactly, true);
        changed += await this.setAllOthersBackground(tx, challengeId, change.exactly);
      } else {
        changed += await this.setScored(tx, challengeId, change.scored ?? [], true);
        changed += await this.setScored(tx, challengeId, change.background ?? [], false);
      }
      return { ...(await this.counts(challengeId, tx)), changed };
    });
  }

  /** The named ids no article of the challenge has, in the order named. */
  private async unknownIds(tx: Queryable, challengeId: number, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await tx.query<{ id: string }>(
      `select x.id from unnest($2::text[]) with ordinality x(id, n)
       where not exists (select 1 from articles a where a.challenge_id = $1 and a.organiser_id = x.id) order by x.n`,
      [challengeId, [...ids]],
    );
    return rows.map((r) => r.id);
  }

  private async setScored(tx: Queryable, challengeId: number, ids: readonly string[], scored: boolean): Promise<number> {
    if (ids.length === 0) return 0;
    // A join on the list, not `= any(list)` per row: a list of 100,000 ids against a million articles.
    const rows = await tx.query<{ n: number }>(
      `with moved as (
         update articles a set scored = $3 from unnest($2::text[]) x(id)
         where a.challenge_id = $1 and a.organiser_id = x.id and a.scored <> $3 returning 1)
       select count(*)::int as n from moved`,
      [challengeId, [...ids], scored],
    );
    return rows[0].n;
  }

  private async setAllOthersBackground(tx: Queryable, challengeId: number, scored: readonly string[]): Promise<number> {
    const rows = await tx.query<{ n: number }>(
      `with moved as (
         update articles a set scored = false
         where a.challenge_id = $1 and a.scored and not exists (select 1 from unnest($2::text[]) x(id) where x.id = a.organiser_id)
         returning 1)
       select count(*)::int as n from moved`,
      [challengeId, [...scored]],
    );
    return rows[0].n;
  }
}
