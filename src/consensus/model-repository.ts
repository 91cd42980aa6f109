// Storage of trained ensemble models: one row per (challenge, task, version), the model
// JSON kept as trained. This, `challenge-runs.ts` and `routes.ts` are the database and
// HTTP face of the pure consensus code in this folder.
import type { Database } from '../db/database.ts';
import { parseEnsemble, serializeEnsemble, type EnsembleModel, type EnsembleTask } from './ensemble.ts';

export interface StoredModel {
  id: number;
  challengeId: number;
  challenge: string;
  task: EnsembleTask;
  version: number;
  model: EnsembleModel;
  createdAt: Date;
}

interface ModelRow {
  id: number;
  challenge_id: number;
  challenge: string;
  task: EnsembleTask;
  version: number;
  model: unknown;
  created_at: Date;
}

const SELECT = 'select m.*, c.slug as challenge from ensemble_models m join challenges c on c.id = m.challenge_id';

function toModel(r: ModelRow): StoredModel {
  // jsonb comes back parsed; parseEnsemble re-checks format and version before use.
  const json = typeof r.model === 'string' ? r.model : JSON.stringify(r.model);
  return {
    id: r.id,
    challengeId: r.challenge_id,
    challenge: r.challenge,
    task: r.task,
    version: r.version,
    model: parseEnsemble(json),
    createdAt: r.created_at,
  };
}

export class EnsembleModelRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new version (1, 2, …); the advisory lock keeps two trainings from taking the same number. */
  async add(challengeId: number, task: EnsembleTask, model: EnsembleModel): Promise<StoredModel> {
    const id = await this.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(72260004, $1)', [challengeId]);
      const rows = await tx.query<{ id: number }>(
        `insert into ensemble_models (challenge_id, task, version, model)
         select $1, $2, coalesce(max(version), 0) + 1, $3::jsonb from ensemble_models where challenge_id = $1 and task = $2
         returning id`,
        [challengeId, task, serializeEnsemble(model)],
      );
      return rows[0].id;
    });
    return (await this.byId(id))!;
  }

  async byId(id: number): Promise<StoredModel | null> {
    const rows = await this.db.query<ModelRow>(`${SELECT} where m.id = $1`, [id]);
    return rows[0] ? toModel(rows[0]) : null;
  }

  async list(challengeId: number, task: EnsembleTask): Promise<StoredModel[]> {
    const rows = await this.db.query<ModelRow>(`${SELECT} where m.challenge_id = $1 and m.task = $2 order by m.version`, [
      challengeId,
      task,
    ]);
    return rows.map(toModel);
  }

  async latest(challengeId: number, task: EnsembleTask): Promise<StoredModel | null> {
    const rows = await this.db.query<ModelRow>(`${SELECT} where m.challenge_id = $1 and m.task = $2 order by m.version desc limit 1`, [
      challengeId,
      task,
    ]);
    return rows[0] ? toModel(rows[0]) : null;
  }
}
