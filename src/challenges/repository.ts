import type { Queryable } from '../db/database.ts';
import { TASK_NAMES, type TaskName } from '../families/registry.ts';

export type Phase = 'setup' | 'test' | 'closed';

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
  createdAt: Date;
}

export type ChallengeSettings = Pick<Challenge, 'timeoutSeconds' | 'maxAttempts' | 'retryDelaySeconds' | 'serversPerTeam' | 'mentionTypes'>;

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
  created_at: Date;
}

export function toChallenge(r: ChallengeRow): Challenge {
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
    createdAt: r.created_at,
  };
}

export const LIVE_SLUG = 'live';

export class ChallengeRepository {
  constructor(private readonly db: Queryable) {}

  async create(c: Pick<Challenge, 'slug' | 'name' | 'tasks'> & Partial<ChallengeSettings>): Promise<Challenge | null> {
    const rows = await this.db.query<ChallengeRow>(
      `insert into challenges (slug, name, tasks, timeout_seconds, max_attempts, retry_delay_seconds, servers_per_team, mention_types)
       values ($1, $2, $3, coalesce($4::int, 600), coalesce($5::int, 3), coalesce($6::float8, 30), coalesce($7::int, 5), coalesce($8::text[], '{}'))
       on conflict (slug) do nothing returning *`,
      [c.slug, c.name, c.tasks, c.timeoutSeconds ?? null, c.maxAttempts ?? null, c.retryDelaySeconds ?? null, c.serversPerTeam ?? null, c.mentionTypes ?? null],
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

  async update(slug: string, patch: Partial<ChallengeSettings & Pick<Challenge, 'phase' | 'name'>>): Promise<Challenge | null> {
    const columns: Record<string, unknown> = {
      name: patch.name,
      phase: patch.phase,
      timeout_seconds: patch.timeoutSeconds,
      max_attempts: patch.maxAttempts,
      retry_delay_seconds: patch.retryDelaySeconds,
      servers_per_team: patch.serversPerTeam,
      mention_types: patch.mentionTypes,
    };
    const set = Object.entries(columns).filter(([, v]) => v !== undefined);
    if (set.length === 0) return await this.bySlug(slug);
    const assignments = set.map(([k], i) => `${k} = $${i + 2}`).join(', ');
    const rows = await this.db.query<ChallengeRow>(`update challenges set ${assignments} where slug = $1 returning *`, [slug, ...set.map(([, v]) => v)]);
    return rows[0] ? toChallenge(rows[0]) : null;
  }

  async counts(id: number): Promise<{ articles: number; servers: number; teams: number }> {
    const rows = await this.db.query<{ articles: number; servers: number; teams: number }>(
      `select (select count(*)::int from articles where challenge_id = $1) as articles,
              (select count(*)::int from servers where challenge_id = $1) as servers,
              (select count(distinct team_id)::int from servers where challenge_id = $1) as teams`,
      [id],
    );
    return rows[0]!;
  }
}
