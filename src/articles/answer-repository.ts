// Reads of the stored answers, joined with their articles: one article across its servers
// (status pages, the public API, callbacks), one server's answers for a task (leaderboard
// online runs, exports) and a challenge's answers per document (consensus).
import type { Queryable } from '../db/database.ts';
import type { OnlineAnswer } from '../families/family.ts';
import type { AnswerResult, TaskName } from '../families/registry.ts';
import type { ArticleSection } from '../formats/common.ts';
import { compareIds } from '../scoring/index.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { ArticleServerState, DeliveryState } from './status.ts';

/**
 * Which stored answers make up a server's online run for the task (`a`: the article, `an`:
 * the answer, `task`: the parameter naming the task): those of articles with an organiser
 * id (on-demand ones match no gold) that hold the task. Every read of online runs — whole,
 * paged for a leaderboard, counted — filters with this one condition.
 */
const onlineRunAnswers = (task: string): string => `a.organiser_id is not null and (an.result -> ${task}) is not null`;

/** One stored answer in a page of documents: its article's organiser id, its server, its value for the task. */
interface PagedAnswer {
  doc: string;
  serverId: number;
  value: unknown;
}

export class AnswerRepository {
  constructor(private readonly db: Queryable) {}

  /** Every server the article was sent to, with its delivery state and stored answer, by server id. */
  async serverStates(articleId: string): Promise<ArticleServerState[]> {
    const rows = await this.db.query<{
      server_id: number;
      name: string;
      protocol: string;
      team: string;
      team_id: number;
      state: DeliveryState;
      attempts: number;
      last_outcome: string | null;
      last_detail: string | null;
      result: AnswerResult | null;
      warnings: ValidationIssue[] | null;
    }>(
      `select d.server_id, s.name, s.protocol, t.name as team, t.id as team_id, d.state, d.attempts, d.last_outcome, d.last_detail, a.result, a.warnings
       from deliveries d join servers s on s.id = d.server_id join teams t on t.id = s.team_id
       left join answers a on a.article_id = d.article_id and a.server_id = d.server_id
       where d.article_id = $1 order by d.server_id`,
      [articleId],
    );
    return rows.map((r) => ({
      serverId: r.server_id,
      name: r.name,
      protocol: r.protocol,
      team: r.team,
      teamId: r.team_id,
      state: r.state,
      attempts: r.attempts,
      lastOutcome: r.last_outcome,
      lastDetail: r.last_detail,
      ...(r.result ? { result: r.result, warnings: r.warnings ?? [] } : {}),
    }));
  }

  /**
   * The server's answers for the task, keyed by organiser id, in organiser-id order (so
   * "line order" is stable). Articles without one (on-demand) match no gold and are left out;
   * with `scoredOnly` (the leaderboards) so are background articles (migration 016). The
   * export a team downloads reads them all: it must not tell background from scored.
   */
  async onlineAnswers(serverId: number, task: TaskName, opts: { scoredOnly?: boolean } = {}): Promise<OnlineAnswer[]> {
    const rows = await this.db.query<{ doc: string; value: unknown }>(
      `select a.organiser_id as doc, an.result -> $2 as value
       from answers an join articles a on a.id = an.article_id
       where an.server_id = $1 and ${onlineRunAnswers('$2')} and (a.scored or not $3)`,
      [serverId, task, opts.scoredOnly === true],
    );
    return rows.sort((x, y) => compareIds(x.doc, y.doc));
  }

  /**
   * The servers' answers for the task to the challenge's scored articles with these organiser
   * ids (one page of a leaderboard: found by the (challenge, organiser id) key, every server
   * at once), in no particular order.
   */
  async onlineAnswersOf(
    challengeId: number,
    serverIds: readonly number[],
    task: TaskName,
    docs: readonly string[],
  ): Promise<PagedAnswer[]> {
    if (serverIds.length === 0 || docs.length === 0) return [];
    const rows = await this.db.query<{ doc: string; server_id: number; value: unknown }>(
      `select a.organiser_id as doc, an.server_id, an.result -> $3 as value
       from articles a join answers an on an.article_id = a.id
       where a.challenge_id = $1 and a.organiser_id = any($4::text[]) and an.server_id = any($2::int[]) and ${onlineRunAnswers('$3')}
         and a.scored`,
      [challengeId, [...serverIds], task, [...docs]],
    );
    return rows.map((r) => ({ doc: r.doc, serverId: r.server_id, value: r.value }));
  }

  /** How many scored articles each server answered for the task (the rows of its online run), counted in the database. */
  async onlineAnswerCounts(serverIds: readonly number[], task: TaskName): Promise<Map<number, number>> {
    if (serverIds.length === 0) return new Map();
    const rows = await this.db.query<{ server_id: number; n: number }>(
      `select an.server_id, count(*)::int as n from answers an join articles a on a.id = an.article_id
       where an.server_id = any($1::int[]) and ${onlineRunAnswers('$2')} and a.scored group by an.server_id`,
      [[...serverIds], task],
    );
    return new Map(rows.map((r) => [r.server_id, r.n]));
  }

  /** When each server last stored an answer of its online run for the task (scored articles, as onlineAnswerCounts counts them); a server with none is absent. */
  async onlineAnswerTimes(serverIds: readonly number[], task: TaskName): Promise<Map<number, Date>> {
    if (serverIds.length === 0) return new Map();
    const rows = await this.db.query<{ server_id: number; at: Date }>(
      `select an.server_id, max(an.stored_at) as at from answers an join articles a on a.id = an.article_id
       where an.server_id = any($1::int[]) and ${onlineRunAnswers('$2')} and a.scored group by an.server_id`,
      [[...serverIds], task],
    );
    return new Map(rows.map((r) => [r.server_id, r.at]));
  }

  /**
   * The challenge's servers of these whose online run for the task is post-challenge: it
   * counts an answer stored after the challenge's official close, or the server was
   * registered after it (migration 025). Compared in the database, to the microsecond.
   */
  async postChallengeServers(challengeId: number, serverIds: readonly number[], task: TaskName): Promise<Set<number>> {
    if (serverIds.length === 0) return new Set();
    const rows = await this.db.query<{ server_id: number }>(
      `select s.id as server_id from servers s join challenges c on c.id = s.challenge_id
       where c.id = $1 and s.id = any($2::int[]) and c.official_closed_at is not null
         and (s.created_at > c.official_closed_at or exists (
           select 1 from answers an join articles a on a.id = an.article_id
           where an.server_id = s.id and ${onlineRunAnswers('$3')} and a.scored and an.stored_at > c.official_closed_at))`,
      [challengeId, [...serverIds], task],
    );
    return new Set(rows.map((r) => r.server_id));
  }

  /**
   * The server's answered articles of the challenge for the task, named by organiser id
   * (else article id), in load order: the corpus's own order (a PubMed id sorted as a
   * string would put 10087562 before 8701013).
   */
  async exportDocuments(
    serverId: number,
    challengeId: number,
    task: TaskName,
  ): Promise<Array<{ id: string; text: string; result: AnswerResult; sections: ArticleSection[] | null }>> {
    return await this.db.query<{ id: string; text: string; result: AnswerResult; sections: ArticleSection[] | null }>(
      `select coalesce(a.organiser_id, a.id::text) as id, a.text, an.result, a.sections
       from answers an join articles a on a.id = an.article_id
       where an.server_id = $1 and a.challenge_id = $2 and (an.result -> $3) is not null
       order by a.seq`,
      [serverId, challengeId, task],
    );
  }

  /**
   * One page of exportDocuments, in the same order, after the load position `after` (the
   * `seq` of the last row of the page before; null: from the start): what a streamed export
   * reads, a page at a time through the index on load order (migration 017), whatever the
   * corpus size.
   */
  async exportPage(
    serverId: number,
    challengeId: number,
    task: TaskName,
    after: string | null,
    limit: number,
  ): Promise<Array<{ id: string; text: string; result: AnswerResult; sections: ArticleSection[] | null; seq: string }>> {
    return await this.db.query<{ id: string; text: string; result: AnswerResult; sections: ArticleSection[] | null; seq: string }>(
      `select coalesce(a.organiser_id, a.id::text) as id, a.text, an.result, a.sections, a.seq::text as seq
       from articles a join answers an on an.article_id = a.id and an.server_id = $1
       where a.challenge_id = $2 and (an.result -> $3) is not null ${after === null ? '' : 'and a.seq > $5::bigint'}
       order by a.seq limit $4`,
      [serverId, challengeId, task, limit, ...(after === null ? [] : [after])],
    );
  }

  /** How many documents exportDocuments would return (the streamed export's expected total). */
  async exportCount(serverId: number, challengeId: number, task: TaskName): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `select count(*)::int as n from answers an join articles a on a.id = an.article_id
       where an.server_id = $1 and a.challenge_id = $2 and (an.result -> $3) is not null`,
      [serverId, challengeId, task],
    );
    return rows[0].n;
  }

  /** The servers' answers to the challenge's articles that have an organiser id, by organiser id then server. */
  async challengeAnswers(
    challengeId: number,
    serverIds: readonly number[],
  ): Promise<Array<{ doc: string; serverId: number; result: AnswerResult }>> {
    const rows = await this.db.query<{ doc: string; server_id: number; result: AnswerResult }>(
      `select a.organiser_id as doc, an.server_id, an.result
       from answers an join articles a on a.id = an.article_id
       where a.challenge_id = $1 and a.organiser_id is not null and an.server_id = any($2::int[])
       order by a.organiser_id, an.server_id`,
      [challengeId, [...serverIds]],
    );
    return rows.map((r) => ({ doc: r.doc, serverId: r.server_id, result: r.result }));
  }
}
