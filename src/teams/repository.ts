import type { Queryable } from '../db/database.ts';

export interface Team {
  id: number;
  name: string;
  contact: string;
  createdAt: Date;
}

interface TeamRow {
  id: number;
  name: string;
  contact: string;
  created_at: Date;
}

const toTeam = (r: TeamRow): Team => ({ id: r.id, name: r.name, contact: r.contact, createdAt: r.created_at });

export class TeamRepository {
  constructor(private readonly db: Queryable) {}

  /** null when the name is taken. */
  async create(name: string, contact: string, tokenHash: string): Promise<Team | null> {
    const rows = await this.db.query<TeamRow>(
      'insert into teams (name, contact, token_hash) values ($1, $2, $3) on conflict (name) do nothing returning id, name, contact, created_at',
      [name, contact, tokenHash],
    );
    return rows[0] ? toTeam(rows[0]) : null;
  }

  async byTokenHash(hash: string): Promise<Team | null> {
    const rows = await this.db.query<TeamRow>('select id, name, contact, created_at from teams where token_hash = $1', [hash]);
    return rows[0] ? toTeam(rows[0]) : null;
  }

  async byId(id: number): Promise<Team | null> {
    const rows = await this.db.query<TeamRow>('select id, name, contact, created_at from teams where id = $1', [id]);
    return rows[0] ? toTeam(rows[0]) : null;
  }
}
