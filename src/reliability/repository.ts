// Reads what the reliability figures are computed from: a server's finished attempts, and
// for each stored answer its annotation count and the size of the article text.
import type { Queryable } from '../db/database.ts';
import { ALL_FAMILIES } from '../families/registry.ts';
import { reliabilityFigures, type AnswerRow, type AttemptRow, type ReliabilityFigures } from './figures.ts';

/**
 * Annotations in one stored answer, counted in SQL so big answers never leave the database,
 * as each family's `counting` says: the items of its lists (INT, IPT, MENTION; COREF's
 * expressions and links), or its answer as one (ACT). Task names and keys are one word
 * each (the registry checks them), so they can stand in the SQL.
 */
const ANNOTATIONS_SQL = ALL_FAMILIES.flatMap((f) => {
  const own = `result->'${f.name}'`;
  if (f.counting.count === 'one') return [`case when result ? '${f.name}' then 1 else 0 end`];
  const lists = f.counting.in?.map((key) => `${own}->'${key}'`) ?? [own];
  return lists.map((list) => `coalesce(jsonb_array_length(case when jsonb_typeof(${list}) = 'array' then ${list} end), 0)`);
}).join('\n  + ');

export interface ServerReliabilityEntry {
  serverId: number;
  name: string;
  teamId: number;
  reliability: ReliabilityFigures;
}

/** The rows the reliability figures are computed from, per server or per challenge. */
export class ReliabilityRepository {
  constructor(private readonly db: Queryable) {}

  private async load(where: string, param: number): Promise<Map<number, { attempts: AttemptRow[]; answers: AnswerRow[] }>> {
    const attempts = await this.db.query<{ server_id: number; started_at: Date; ms: number | null; outcome: string | null }>(
      `select t.server_id, t.started_at, t.ms, t.outcome from attempts t join servers s on s.id = t.server_id
       where ${where} and t.outcome is not null order by t.started_at, t.article_id, t.n`,
      [param],
    );
    const answers = await this.db.query<{ server_id: number; annotations: number; text_bytes: number; ms: number }>(
      `select w.server_id, (${ANNOTATIONS_SQL})::int as annotations, octet_length(a.text)::int as text_bytes, w.ms
       from answers w join articles a on a.id = w.article_id join servers s on s.id = w.server_id where ${where}`,
      [param],
    );
    const out = new Map<number, { attempts: AttemptRow[]; answers: AnswerRow[] }>();
    const entry = (id: number) => {
      let e = out.get(id);
      if (!e) out.set(id, (e = { attempts: [], answers: [] }));
      return e;
    };
    for (const r of attempts)
      entry(r.server_id).attempts.push({ startedAt: new Date(r.started_at).getTime(), ms: r.ms, outcome: r.outcome });
    for (const r of answers) entry(r.server_id).answers.push({ annotations: r.annotations, textBytes: r.text_bytes, ms: r.ms });
    return out;
  }

  async server(serverId: number): Promise<ReliabilityFigures> {
    const rows = (await this.load('s.id = $1', serverId)).get(serverId);
    return reliabilityFigures(rows?.attempts ?? [], rows?.answers ?? []);
  }

  /** Every server of a challenge, for the organisers' overview. */
  async challenge(challengeId: number): Promise<ServerReliabilityEntry[]> {
    const servers = await this.db.query<{ id: number; name: string; team_id: number }>(
      'select id, name, team_id from servers where challenge_id = $1 order by id',
      [challengeId],
    );
    const data = await this.load('s.challenge_id = $1', challengeId);
    return servers.map((s) => ({
      serverId: s.id,
      name: s.name,
      teamId: s.team_id,
      reliability: reliabilityFigures(data.get(s.id)?.attempts ?? [], data.get(s.id)?.answers ?? []),
    }));
  }
}
