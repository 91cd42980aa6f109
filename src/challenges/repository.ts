import { transactional, type Queryable } from '../db/database.ts';
import { TASK_NAMES, type TaskName } from '../families/registry.ts';

/**
 * setup → test → closed; then, optionally, `post`: the post-challenge phase, where teams
 * register, run and upload again while the official boards stay as they were at the close.
 */
export type Phase = 'setup' | 'test' | 'closed' | 'post';

/** The challenge's official part is over: closed, or in its post-challenge phase. */
export const hasClosed = (c: Pick<Challenge, 'phase'>): boolean => c.phase === 'closed' || c.phase === 'post';

export interface Challenge {
  id: number;
  slug: string;
  name: string;
  tasks: TaskName[];
  phase: Phase;
  timeoutSeconds: number;
  maxAttempts: number;
  retryDelaySeconds: number;
  serversPerTeam: number;
  mentionTypes: string[];
  /** REL: the relation types (empty: DrugProt's 13). */
  relationTypes: string[];
  /** REL: the entity types each argument may have (absent: any given entity). */
  relationArguments: RelationArguments;
  /** TOPIC: the label set (empty: LitCovid's seven). */
  topicLabels: string[];
  /** MENTION: the namespaces each entity type's concept ids may have (`*`: other types; empty: any). */
  mentionNamespaces: Record<string, string[]>;
  /** CREL: the relation types between concepts (empty: BioRED's eight and BC5CDR's CID). */
  conceptRelationTypes: string[];
  /** The organiser published the leaderboards to everyone (shown without a token while closed). */
  leaderboardPublished: boolean;
  createdAt: Date;
  /** The latest phase change: when, and by whom (null before the first). */
  phaseChangedAt: Date | null;
  phaseChangedBy: string | null;
  /** The close the official boards are of (migration 025); null before a close and after a reopening. */
  officialClosedAt: Date | null;
  /** When the post phase first opened after that close: the official boards are never taken again from then. */
  postOpenedAt: Date | null;
}

/** One change of a challenge's phase, as kept in its history. */
export interface PhaseChange {
  from: Phase;
  to: Phase;
  by: string;
  address: string | null;
  at: Date;
}

/** What a challenge holds; `scored` and `background` only in the organiser's views. */
export interface ChallengeCounts {
  articles: number;
  servers: number;
  teams: number;
  scored?: number;
  background?: number;
}

export type ChallengeSettings = Pick<
  Challenge,
  | 'timeoutSeconds'
  | 'maxAttempts'
  | 'retryDelaySeconds'
  | 'serversPerTeam'
  | 'mentionTypes'
  | 'relationTypes'
  | 'relationArguments'
  | 'topicLabels'
  | 'mentionNamespaces'
  | 'conceptRelationTypes'
>;

/** The entity types allowed as each argument of a relation (REL). */
export interface RelationArguments {
  arg1?: string[];
  arg2?: string[];
}

interface ChallengeRow {
  id: number;
  slug: string;
  name: string;
  tasks: TaskName[];
  phase: Phase;
  timeout_seconds: number;
  max_attempts: number;
  retry_delay_seconds: number;
  servers_per_team: number;
  mention_types: string[];
  relation_types?: string[];
  relation_arguments?: RelationArguments;
  topic_labels?: string[];
  mention_namespaces?: Record<string, string[]>;
  concept_relation_types?: string[];
  leaderboard_published: boolean;
  created_at: Date;
  phase_changed_at: Date | null;
  phase_changed_by: string | null;
  official_closed_at: Date | null;
  post_opened_at: Date | null;
}

function toChallenge(r: ChallengeRow): Challenge {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    tasks: r.tasks,
    phase: r.phase,
    timeoutSeconds: r.timeout_seconds,
    maxAttempts: r.max_attempts,
    retryDelaySeconds: r.retry_delay_seconds,
    serversPerTeam: r.servers_per_team,
    mentionTypes: r.mention_types,
    relationTypes: r.relation_types ?? [],
    relationArguments: r.relation_arguments ?? {},
    topicLabels: r.topic_labels ?? [],
    mentionNamespaces: r.mention_namespaces ?? {},
    conceptRelationTypes: r.concept_relation_types ?? [],
    leaderboardPublished: r.leaderboard_published ?? false,
    createdAt: r.created_at,
    phaseChangedAt: r.phase_changed_at,
    phaseChangedBy: r.phase_changed_by,
    officialClosedAt: r.official_closed_at ?? null,
    postOpenedAt: r.post_opened_at ?? null,
  };
}

/** The lock a phase change holds exclusively and every dispatch write batch shares (migration 006). */
export const PHASE_LOCK = 72260005;

export const LIVE_SLUG = 'live';

export class ChallengeRepository {
  constructor(private readonly db: Queryable) {}

  async create(c: Pick<Challenge, 'slug' | 'name' | 'tasks'> & Partial<ChallengeSettings>): Promise<Challenge | null> {
    const rows = await this.db.query<ChallengeRow>(
      `insert into challenges (slug, name, tasks, timeout_seconds, max_attempts, retry_delay_seconds, servers_per_team, mention_types, relation_types, relation_arguments, topic_labels,
                               mention_namespaces, concept_relation_types)
       values ($1, $2, $3, coalesce($4::int, 600), coalesce($5::int, 3), coalesce($6::float8, 30), coalesce($7::int, 5), coalesce($8::text[], '{}'),
               coalesce($9::text[], '{}'), coalesce($10::jsonb, '{}'::jsonb), coalesce($11::text[], '{}'), coalesce($12::jsonb, '{}'::jsonb),
               coalesce($13::text[], '{}'))
       on conflict (slug) do nothing returning *`,
      [
        c.slug,
        c.name,
        c.tasks,
        c.timeoutSeconds ?? null,
        c.maxAttempts ?? null,
        c.retryDelaySeconds ?? null,
        c.serversPerTeam ?? null,
        c.mentionTypes ?? null,
        c.relationTypes ?? null,
        c.relationArguments ? JSON.stringify(c.relationArguments) : null,
        c.topicLabels ?? null,
        c.mentionNamespaces ? JSON.stringify(c.mentionNamespaces) : null,
        c.conceptRelationTypes ?? null,
      ],
    );
    return rows[0] ? toChallenge(rows[0]) : null;
  }

  /**
   * The `live` challenge takes on-demand articles with every task there is: it exists from
   * the first start, and a task family added later joins it at the next start.
   */
  async ensureLive(): Promise<Challenge> {
    await this.create({ slug: LIVE_SLUG, name: 'Live on-demand annotation', tasks: [...TASK_NAMES] });
    await this.db.query(
      'update challenges set tasks = tasks || array(select t from unnest($2::text[]) t where not t = any(tasks)) where slug = $1 and not tasks @> $2::text[]',
      [LIVE_SLUG, TASK_NAMES],
    );
    const live = await this.bySlug(LIVE_SLUG);
    if (!live) throw new Error('the live challenge could not be created');
    return live;
  }

  async bySlug(slug: string): Promise<Challenge | null> {
    const rows = await this.db.query<ChallengeRow>('select * from challenges where slug = $1', [slug]);
    return rows[0] ? toChallenge(rows[0]) : null;
  }

  async byId(id: number): Promise<Challenge | null> {
    const rows = await this.db.query<ChallengeRow>('select * from challenges where id = $1', [id]);
    return rows[0] ? toChallenge(rows[0]) : null;
  }

  async list(): Promise<Challenge[]> {
    return (await this.db.query<ChallengeRow>('select * from challenges order by id')).map(toChallenge);
  }

  /** The settings patch and, if given, a phase change, in one transaction (PATCH /challenges/:slug). */
  async change(
    slug: string,
    settings: Partial<ChallengeSettings & Pick<Challenge, 'name' | 'leaderboardPublished'>>,
    phase: { to: Phase; by: string; address: string | null } | undefined,
  ): Promise<Challenge | null> {
    return await transactional(this.db).transaction(async (tx) => {
      const repo = new ChallengeRepository(tx);
      const updated = await repo.update(slug, settings);
      if (!updated) return null;
      return phase !== undefined ? await repo.changePhase(updated.id, phase.to, phase.by, phase.address) : updated;
    });
  }

  /**
   * Sets the phase and records who changed it. Call it inside a transaction: it first takes
   * the challenge's phase lock exclusively, so it waits for the dispatch writes under way,
   * and those after it see the new phase (a close is exact: no attempt begins and no answer
   * is stored once it has committed). Null when the challenge does not exist.
   */
  async changePhase(id: number, to: Phase, by: string, address: string | null): Promise<Challenge | null> {
    await this.db.query('select pg_advisory_xact_lock($1, $2)', [PHASE_LOCK, id]);
    const before = await this.db.query<{ phase: Phase }>('select phase from challenges where id = $1 for update', [id]);
    if (!before[0]) return null;
    if (before[0].phase === to) return await this.byId(id);
    // The time the lock was held, not the transaction's start: every attempt begun and answer
    // stored under the old phase has a time (its own transaction's start) before it. A close
    // from setup or test is the one the official boards are of; a close ending a post phase
    // keeps it; a reopening forgets it (migration 025).
    const rows = await this.db.query<ChallengeRow>(
      `update challenges set phase = $2, phase_changed_at = now_.t, phase_changed_by = $3,
         official_closed_at = case when $2 = 'closed' and phase in ('setup', 'test') then now_.t
                                   when $2 in ('setup', 'test') then null else official_closed_at end,
         post_opened_at = case when $2 = 'post' then coalesce(post_opened_at, now_.t)
                               when $2 in ('setup', 'test') then null else post_opened_at end
       from (select clock_timestamp() as t) now_
       where id = $1 returning challenges.*`,
      [id, to, by],
    );
    await this.db.query(
      'insert into challenge_phase_changes (challenge_id, from_phase, to_phase, changed_by, address, changed_at) values ($1, $2, $3, $4, $5, $6)',
      [id, before[0].phase, to, by, address, rows[0].phase_changed_at],
    );
    return toChallenge(rows[0]);
  }

  /** Every phase change of the challenge, oldest first. */
  async phaseHistory(id: number): Promise<PhaseChange[]> {
    const rows = await this.db.query<{ from_phase: Phase; to_phase: Phase; changed_by: string; address: string | null; changed_at: Date }>(
      'select from_phase, to_phase, changed_by, address, changed_at from challenge_phase_changes where challenge_id = $1 order by id',
      [id],
    );
    return rows.map((r) => ({ from: r.from_phase, to: r.to_phase, by: r.changed_by, address: r.address, at: r.changed_at }));
  }

  /** Settings and name; the phase changes through changePhase. */
  async update(
    slug: string,
    patch: Partial<ChallengeSettings & Pick<Challenge, 'name' | 'leaderboardPublished'>>,
  ): Promise<Challenge | null> {
    const columns: Record<string, unknown> = {
      name: patch.name,
      timeout_seconds: patch.timeoutSeconds,
      max_attempts: patch.maxAttempts,
      retry_delay_seconds: patch.retryDelaySeconds,
      servers_per_team: patch.serversPerTeam,
      mention_types: patch.mentionTypes,
      relation_types: patch.relationTypes,
      relation_arguments: patch.relationArguments === undefined ? undefined : JSON.stringify(patch.relationArguments),
      topic_labels: patch.topicLabels,
      mention_namespaces: patch.mentionNamespaces === undefined ? undefined : JSON.stringify(patch.mentionNamespaces),
      concept_relation_types: patch.conceptRelationTypes,
      leaderboard_published: patch.leaderboardPublished,
    };
    const set = Object.entries(columns).filter(([, v]) => v !== undefined);
    if (set.length === 0) return await this.bySlug(slug);
    const assignments = set.map(([k], i) => `${k} = $${i + 2}`).join(', ');
    const rows = await this.db.query<ChallengeRow>(`update challenges set ${assignments} where slug = $1 returning *`, [
      slug,
      ...set.map(([, v]) => v),
    ]);
    return rows[0] ? toChallenge(rows[0]) : null;
  }

  /**
   * The challenge's articles, servers and teams; with `marks` (the organiser's views only)
   * also how many articles are scored and how many are background (migration 016).
   */
  async counts(id: number, opts: { marks?: boolean } = {}): Promise<ChallengeCounts> {
    const rows = await this.db.query<ChallengeCounts & { background: number }>(
      `select (select count(*)::int from articles where challenge_id = $1) as articles,
              (select count(*)::int from servers where challenge_id = $1) as servers,
              (select count(distinct team_id)::int from servers where challenge_id = $1) as teams,
              case when $2 then (select count(*)::int from articles where challenge_id = $1 and not scored) end as background`,
      [id, opts.marks === true],
    );
    const { articles, servers, teams, background } = rows[0];
    return { articles, servers, teams, ...(opts.marks ? { scored: articles - background, background } : {}) };
  }
}
