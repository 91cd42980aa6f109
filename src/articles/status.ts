// The state of one article across the servers it was sent to, with the stored answers.
import type { Queryable } from '../db/database.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { DeliveryState } from '../dispatch/store.ts';

export interface ArticleServerState {
  serverId: number;
  name: string;
  /** The annotator protocol the server speaks. */
  protocol: string;
  team: string;
  teamId: number;
  state: DeliveryState;
  attempts: number;
  lastOutcome: string | null;
  lastDetail: string | null;
  result?: AnswerResult;
  warnings?: ValidationIssue[];
}

export type ArticleStatus = 'pending' | 'running' | 'done';

export async function articleServers(db: Queryable, articleId: string): Promise<ArticleServerState[]> {
  const rows = await db.query<{
    server_id: number; name: string; protocol: string; team: string; team_id: number; state: DeliveryState; attempts: number;
    last_outcome: string | null; last_detail: string | null; result: AnswerResult | null; warnings: ValidationIssue[] | null;
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

/** pending: sent nowhere yet; running: some server still working; done: every server answered or failed for good. */
export function articleStatus(servers: ArticleServerState[]): ArticleStatus {
  if (servers.length === 0) return 'pending';
  return servers.every((s) => s.state === 'done' || s.state === 'failed') ? 'done' : 'running';
}
