import { createHash } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { TaskName } from '../families/registry.ts';
import type { Queryable } from '../db/database.ts';
import type { ArticleSection } from '../formats/common.ts';
import { LoadingCache, stringBytes } from '../shared/loading-cache.ts';
import { BatchedLoader } from '../shared/batched-loader.ts';
import { describeProgress, statusOf, type ArticleStatus } from './status.ts';
import { totalFromAggregates } from './list-total-repository.ts';

export interface Article {
  id: string;
  seq: number;
  challengeId: number;
  challenge: string;
  organiserId: string | null;
  text: string;
  given: string;
  sourceFormat: string;
  tasks: TaskName[] | null;
  callbackUrl: string | null;
  createdAt: Date;
  /** The passages of an article loaded from a corpus (BioC, PubTator), null for others. */
  sections?: ArticleSection[] | null;
}

export interface NewArticle {
  organiserId: string | null;
  text: string;
  given?: string;
  sourceFormat?: string;
  sections?: readonly ArticleSection[];
  tasks?: TaskName[] | null;
  callbackUrl?: string | null;
  /** Who submitted an on-demand article (http/client-address.ts), for the limits on what may wait. */
  submittedBy?: string | null;
  /** False: a background article, sent to every server but left out of the leaderboards (default true). */
  scored?: boolean;
}

/** On-demand articles waiting for the live servers: the client's and everyone's (articles/on-demand-limits.ts). */
export interface PendingOnDemand {
  mine: number;
  total: number;
}

/** How long an article with no delivery yet counts as waiting (the queueing is normally milliseconds behind). */
const UNQUEUED_GRACE = '10 minutes';
/** Any number: the lock every on-demand submission takes around its count and insert. */
const SUBMISSION_LOCK = 72260007;

interface ArticleRow {
  id: string;
  seq: string | number;
  challenge_id: number;
  challenge: string;
  organiser_id: string | null;
  text: string;
  given: string;
  source_format: string;
  tasks: TaskName[] | null;
  callback_url: string | null;
  created_at: Date;
  sections: ArticleSection[] | null;
}

const toArticle = (r: ArticleRow): Article => ({
  id: r.id,
  seq: Number(r.seq),
  challengeId: r.challenge_id,
  challenge: r.challenge,
  organiserId: r.organiser_id,
  text: r.text,
  given: r.given,
  sourceFormat: r.source_format,
  tasks: r.tasks,
  callbackUrl: r.callback_url,
  createdAt: r.created_at,
  sections: r.sections ?? null,
});

const SELECT = 'select a.*, c.slug as challenge from articles a join challenges c on c.id = a.challenge_id';
const SELECT_WITHOUT_TEXT = `select a.id, a.seq, a.challenge_id, c.slug as challenge, a.organiser_id, '' as text, '' as given, a.source_format, a.tasks, a.callback_url, a.created_at, a.sections
   from articles a join challenges c on c.id = a.challenge_id`;

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** An organiser id loaded again with a different text. */
export interface ArticleConflict {
  organiserId: string;
  articleId: string;
}

type DispatchView = Pick<Article, 'id' | 'text' | 'given' | 'organiserId' | 'tasks' | 'callbackUrl'>;

/** Articles kept in memory for the workers of this process (see forDispatch), at most. */
const DISPATCH_VIEWS = 256;
/** …and at most this many bytes of them, unless the repository is given its own bound. */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

const viewBytes = (v: DispatchView): number => stringBytes(v.text) + stringBytes(v.given) + 200;

/**
 * What the organisers' list filters on (list-routes.ts says what each means): an article's
 * state (articles/status.ts), or `failed`, settled with at least one server failed for good.
 */
export const ARTICLE_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type ArticleListState = (typeof ARTICLE_STATES)[number];
/** One server's outcome for an article: answered, failed for good, or not yet either. */
export const SERVER_OUTCOMES = ['answered', 'failed', 'pending'] as const;
export type ServerOutcome = (typeof SERVER_OUTCOMES)[number];

export interface ArticleListFilter {
  state: ArticleListState | null;
  /** Only the articles with this outcome at this server. */
  server?: { id: number; outcome: ServerOutcome };
}

export interface ArticleListRow {
  id: string;
  organiserId: string | null;
  state: ArticleStatus;
  servers: number;
  done: number;
  failed: number;
  /** The same words as the article page: "answered by 19 of 20 servers, failed at 1". */
  summary: string;
  bytes: number;
  createdAt: string;
}

export class ArticleRepository {
  /**
   * What dispatch reads of an article, for the most recent ones. Articles never change once
   * loaded, and every server of a challenge asks for the same ones; the articles this
   * process creates go in at once, so when the API and the workers share a process
   * (`serve`) an on-demand article is not read back a few milliseconds after it was stored.
   */
  private readonly dispatchViews: LoadingCache<string, DispatchView>;

  constructor(
    private readonly db: Database,
    opts: { cacheBytes?: number } = {},
  ) {
    this.dispatchViews = new LoadingCache(DISPATCH_VIEWS, Infinity, Infinity, {
      maxBytes: opts.cacheBytes ?? DEFAULT_CACHE_BYTES,
      bytesOf: viewBytes,
    });
  }

  /**
   * Loads a batch in one transaction. A repeat of an organiser id with the same text is
   * accepted and changes nothing; with a different text the whole batch is refused.
   * With `onDemand`, the on-demand articles waiting are counted first, in the same
   * transaction under one lock, and `admit` may refuse the whole batch by throwing.
   */
  async insertMany(
    challengeId: number,
    items: NewArticle[],
    opts: { onDemand?: { client: string; admit: (pending: PendingOnDemand) => void } } = {},
  ): Promise<{ ids: Map<string, string>; created: string[] } | { conflicts: ArticleConflict[] }> {
    return await this.db
      .transaction(async (tx) => {
        if (opts.onDemand) {
          await tx.query(`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`);
          opts.onDemand.admit(await this.pendingOnDemand(tx, challengeId, opts.onDemand.client));
        }
        const ids = new Map<string, string>();
        const created: string[] = [];
        const views: DispatchView[] = [];
        const conflicts: ArticleConflict[] = [];
        for (const item of items) {
          const hash = sha256(item.text);
          const rows = await tx.query<{ id: string }>(
            `insert into articles (challenge_id, organiser_id, text, text_sha256, given, source_format, tasks, callback_url, submitted_by, sections, scored)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11)
           on conflict (challenge_id, organiser_id) do nothing returning id`,
            [
              challengeId,
              item.organiserId,
              item.text,
              hash,
              item.given ?? '',
              item.sourceFormat ?? 'text',
              item.tasks ?? null,
              item.callbackUrl ?? null,
              item.submittedBy ?? null,
              item.sections && item.sections.length > 0 ? JSON.stringify(item.sections) : null,
              item.scored ?? true,
            ],
          );
          if (rows[0]) {
            created.push(rows[0].id);
            views.push({
              id: rows[0].id,
              text: item.text,
              given: item.given ?? '',
              organiserId: item.organiserId ?? null,
              tasks: item.tasks ?? null,
              callbackUrl: item.callbackUrl ?? null,
            });
            ids.set(item.organiserId ?? rows[0].id, rows[0].id);
            continue;
          }
          const existing = await tx.query<{ id: string; text_sha256: string; given: string }>(
            'select id, text_sha256, given from articles where challenge_id = $1 and organiser_id = $2',
            [challengeId, item.organiserId],
          );
          const row = existing[0];
          if (row.text_sha256 === hash && row.given === (item.given ?? '')) ids.set(item.organiserId!, row.id);
          else conflicts.push({ organiserId: item.organiserId!, articleId: row.id });
        }
        if (conflicts.length > 0) {
          // Throwing rolls the whole batch back: nothing half-loaded stays behind.
          throw new ArticleConflictError(conflicts);
        }
        return { ids, created, views };
      })
      .then(({ ids, created, views }) => {
        // Committed: keep the new ones (of a big batch, the last: the next to be sent).
        for (const view of views.slice(-DISPATCH_VIEWS)) this.dispatchViews.set(view.id, view);
        return { ids, created };
      })
      .catch((err: unknown) => {
        if (err instanceof ArticleConflictError) return { conflicts: err.conflicts };
        throw err;
      });
  }

  /** With text: false the text (and given) are not read: they come back empty. */
  async byId(id: string, opts: { text?: boolean } = {}): Promise<Article | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.db.query<ArticleRow>(`${opts.text === false ? SELECT_WITHOUT_TEXT : SELECT} where a.id = $1`, [id]);
    return rows[0] ? toArticle(rows[0]) : null;
  }

  async byOrganiserId(challengeId: number, organiserId: string): Promise<Article | null> {
    const rows = await this.db.query<ArticleRow>(`${SELECT} where a.challenge_id = $1 and a.organiser_id = $2`, [challengeId, organiserId]);
    return rows[0] ? toArticle(rows[0]) : null;
  }

  /** What the dispatcher needs to send an article: nothing more is read on the hot path. */
  forDispatch(id: string): Promise<DispatchView | null> {
    return this.dispatchViews.get(id, (key) => this.readForDispatch(key));
  }

  private readForDispatch(id: string): Promise<DispatchView | null> {
    // Ids as the database writes them (lower case), so that each finds its row.
    return this.dispatchReads.load(id.toLowerCase());
  }

  /** The articles of the jobs begun together, in one query (shared/batched-loader.ts). */
  private readonly dispatchReads = new BatchedLoader<string, DispatchView>(async (ids) => {
    const rows = await this.db.query<{
      id: string;
      text: string;
      given: string;
      organiser_id: string | null;
      tasks: TaskName[] | null;
      callback_url: string | null;
    }>('select id, text, given, organiser_id, tasks, callback_url from articles where id = any($1::uuid[])', [ids]);
    return new Map(
      rows.map((r) => [
        r.id,
        { id: r.id, text: r.text, given: r.given, organiserId: r.organiser_id, tasks: r.tasks, callbackUrl: r.callback_url },
      ]),
    );
  });

  /**
   * The articles of a challenge, in load order, with their state across the servers they
   * went to (see list-routes.ts), filtered by that state in SQL and paged by key: the
   * articles after load position `page.after` (null: from the first), `page.offset` of them
   * skipped (the deprecated form, kept small by the route). Each article's state is
   * computed from its own deliveries only, walking the challenge's articles in key order
   * until the page is full, so a page costs the same at a million articles as at a hundred.
   * `total` (every article the filter keeps) is counted only when `page.count` asks — the
   * first page —: from the index and counters where they hold it
   * (list-total-repository.ts), else over the whole challenge. `next` is the key after the
   * page, null when no article follows (one row more than the page is read to know it, so a
   * last page that is exactly full does not lead to an empty one).
   */
  async listWithState(
    challengeId: number,
    filter: ArticleListFilter,
    page: { limit: number; offset: number; after: number | null; count: boolean },
  ): Promise<{ total: number | null; next: number | null; articles: ArticleListRow[] }> {
    // The state in SQL is statusOf (articles/status.ts) over the same counts, for filtering.
    const listed = (select: string, tail: string) => `select ${select} from (
         select a.id, a.organiser_id, a.seq, a.created_at, s.servers, s.done, s.failed, s.state
         from articles a cross join lateral (
           select count(d.server_id)::int as servers,
                  count(*) filter (where d.state = 'done')::int as done,
                  count(*) filter (where d.state = 'failed')::int as failed,
                  case when count(d.server_id) = 0 then 'pending'
                       when count(*) filter (where d.state in ('queued', 'active')) > 0 then 'running'
                       else 'done' end as state
           from deliveries d where d.article_id = a.id) s
         where a.challenge_id = $1 and a.seq > $3
           and ($4::int is null or case $5::text
                 when 'answered' then exists (select 1 from deliveries s where s.article_id = a.id and s.server_id = $4 and s.state = 'done')
                 when 'failed' then exists (select 1 from deliveries s where s.article_id = a.id and s.server_id = $4 and s.state = 'failed')
                 else not exists (select 1 from deliveries s where s.article_id = a.id and s.server_id = $4 and s.state in ('done', 'failed')) end)
         order by a.seq) x
       where $2::text is null or x.state = $2 or ($2 = 'failed' and x.state = 'done' and x.failed > 0) ${tail}`;
    const params = [challengeId, filter.state, page.after ?? 0, filter.server?.id ?? null, filter.server?.outcome ?? null];
    const rows = await this.db.query<{
      id: string;
      organiser_id: string | null;
      seq: string;
      servers: number;
      done: number;
      failed: number;
      bytes: number;
      created_at: Date;
    }>(listed('x.*, (select octet_length(t.text)::int from articles t where t.id = x.id) as bytes', 'order by x.seq limit $6 offset $7'), [
      ...params,
      page.limit + 1,
      page.offset,
    ]);
    const shown = rows.slice(0, page.limit);
    const total = page.count
      ? ((await totalFromAggregates(this.db, challengeId, filter)) ??
        (await this.db.query<{ n: number }>(listed('count(*)::int as n', ''), params))[0].n)
      : null;
    const next = rows.length > page.limit ? Number(shown[shown.length - 1].seq) : null;
    return {
      total,
      next,
      articles: shown.map((r) => {
        const progress = { servers: r.servers, answered: r.done, failed: r.failed };
        return {
          id: r.id,
          organiserId: r.organiser_id,
          state: statusOf(progress),
          servers: r.servers,
          done: r.done,
          failed: r.failed,
          summary: describeProgress(progress),
          bytes: r.bytes,
          createdAt: new Date(r.created_at).toISOString(),
        };
      }),
    };
  }

  /**
   * The challenge's articles as they were loaded — id (organiser id, else article id), text
   * and sections — in load order; `organiserIds`: those only. What the organiser's exports write.
   */
  async loadedDocuments(
    challengeId: number,
    organiserIds?: readonly string[],
  ): Promise<Array<{ id: string; text: string; sections: ArticleSection[] | null }>> {
    return await this.db.query<{ id: string; text: string; sections: ArticleSection[] | null }>(
      `select coalesce(organiser_id, id::text) as id, text, sections from articles
       where challenge_id = $1 ${organiserIds ? 'and organiser_id = any($2::text[])' : ''} order by seq`,
      organiserIds ? [challengeId, [...organiserIds]] : [challengeId],
    );
  }

  /** Which of the organiser ids have an article in the challenge (the others are named to the organiser loading gold). */
  async knownIds(challengeId: number, organiserIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ organiser_id: string }>(
      'select organiser_id from articles where challenge_id = $1 and organiser_id = any($2::text[])',
      [challengeId, [...organiserIds]],
    );
    return new Set(rows.map((r) => r.organiser_id));
  }

  /**
   * On-demand articles waiting: a delivery to an active live server queued or under way, or
   * none yet though just submitted. The states are two partial indexes (deliveries_waiting,
   * deliveries_unsettled: migration 021), read together for the live servers only: hence
   * the two states as an `or`, and the servers as an array the index conditions take.
   */
  private async pendingOnDemand(tx: Queryable, liveChallengeId: number, client: string): Promise<PendingOnDemand> {
    const rows = await tx.query<{ mine: string | number; total: string | number }>(
      `with busy as (
         select distinct d.article_id as id from deliveries d
         where d.server_id = any (array(select id from servers where challenge_id = $1 and state = 'active'))
           and (d.state = 'queued' or d.state = 'active')
       ), unqueued as (
         select a.id from articles a
         where a.challenge_id = $1 and a.created_at > now() - interval '${UNQUEUED_GRACE}'
           and not exists (select 1 from deliveries d where d.article_id = a.id)
       )
       select count(*) as total, count(*) filter (where a.submitted_by = $2) as mine
       from (select id from busy union select id from unqueued) p join articles a on a.id = p.id`,
      [liveChallengeId, client],
    );
    return { mine: Number(rows[0]?.mine ?? 0), total: Number(rows[0]?.total ?? 0) };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class ArticleConflictError extends Error {
  constructor(readonly conflicts: ArticleConflict[]) {
    super('article conflicts');
    this.name = this.constructor.name;
  }
}
