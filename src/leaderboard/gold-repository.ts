// Stored gold standards and post-processing maps of a challenge. Each is one row holding
// the upload as sent, so replacing one is a single upsert: a concurrent scorer reads the
// old version or the new one, never a mix of both.
import type { Queryable } from '../db/database.ts';
import type { TaskName } from '../families/registry.ts';

export type MapKind = 'ho' | 'of';

export interface StoredGold {
  task: TaskName;
  body: string;
  documents: number;
  items: number;
  loadedAt: Date;
}

export interface StoredMap {
  kind: MapKind;
  body: string;
  entries: number;
  loadedAt: Date;
}

export class GoldRepository {
  constructor(private readonly db: Queryable) {}

  async putGold(challengeId: number, task: TaskName, body: string, documents: number, items: number): Promise<void> {
    await this.db.query(
      `insert into gold_standards (challenge_id, task, body, documents, items) values ($1, $2, $3, $4, $5)
       on conflict (challenge_id, task) do update
         set body = excluded.body, documents = excluded.documents, items = excluded.items, loaded_at = now()`,
      [challengeId, task, body, documents, items],
    );
  }

  async gold(challengeId: number, task: TaskName): Promise<StoredGold | null> {
    const rows = await this.db.query<{ task: TaskName; body: string; documents: number; items: number; loaded_at: Date }>(
      'select task, body, documents, items, loaded_at from gold_standards where challenge_id = $1 and task = $2',
      [challengeId, task],
    );
    const r = rows[0];
    return r ? { task: r.task, body: r.body, documents: r.documents, items: r.items, loadedAt: r.loaded_at } : null;
  }

  async putMap(challengeId: number, kind: MapKind, body: string, entries: number): Promise<void> {
    await this.db.query(
      `insert into scoring_maps (challenge_id, kind, body, entries) values ($1, $2, $3, $4)
       on conflict (challenge_id, kind) do update set body = excluded.body, entries = excluded.entries, loaded_at = now()`,
      [challengeId, kind, body, entries],
    );
  }

  async map(challengeId: number, kind: MapKind): Promise<StoredMap | null> {
    const rows = await this.db.query<{ kind: MapKind; body: string; entries: number; loaded_at: Date }>(
      'select kind, body, entries, loaded_at from scoring_maps where challenge_id = $1 and kind = $2',
      [challengeId, kind],
    );
    const r = rows[0];
    return r ? { kind: r.kind, body: r.body, entries: r.entries, loadedAt: r.loaded_at } : null;
  }
}
