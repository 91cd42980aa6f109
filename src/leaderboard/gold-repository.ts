// Stored gold standards and post-processing maps of a challenge. Each is one row holding
// the upload as sent, so replacing one is a single upsert: a concurrent scorer reads the
// old version or the new one, never a mix of both. A streamed family's gold (MENTION) is
// also kept one row per document (gold_documents, written in the same transaction), which
// a leaderboard reads a page of documents at a time; its loadedAt tells a reader whether
// the gold was replaced while it paged.
import { transactional, type Queryable } from '../db/database.ts';
import type { TaskName } from '../families/registry.ts';
import type { CorpusDocument, CorpusHeader } from '../formats/bioc-corpus.ts';
import type { CorpusFormat } from '../formats/corpus-file.ts';

export type MapKind = 'ho' | 'of';

export interface StoredGold {
  task: TaskName;
  body: string;
  documents: number;
  items: number;
  loadedAt: Date;
}

/** A stored gold standard without its body: what a reader that pages its documents needs. */
export interface GoldHeading {
  documents: number;
  items: number;
  loadedAt: Date;
  /** Whether it is kept one row per document too (loaded while its family streams). */
  perDocument: boolean;
}

/** One gold document's part of the upload (the family's form for one document). */
export interface GoldDocument {
  doc: string;
  body: string;
}

/** A gold standard loaded from a corpus, as it was read (migration 023): what its export writes back. */
export interface GoldCorpus {
  format: CorpusFormat;
  header?: CorpusHeader;
  documents: CorpusDocument[];
}

/** Rows written per insert when a gold standard is stored per document. */
const INSERT_CHUNK = 5_000;

export interface StoredMap {
  kind: MapKind;
  body: string;
  entries: number;
  loadedAt: Date;
}

export class GoldRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Stores (replaces) the task's gold; `perDocument`: the same gold one row per document, for
   * streamed families; `asLoaded`: the corpus it was read from (none: loaded in the family's form).
   */
  async putGold(
    challengeId: number,
    task: TaskName,
    body: string,
    counts: { documents: number; items: number },
    perDocument?: readonly GoldDocument[],
    asLoaded?: GoldCorpus,
  ): Promise<void> {
    await transactional(this.db).transaction(async (tx) => {
      await tx.query(
        `insert into gold_standards (challenge_id, task, body, documents, items, corpus_format, corpus_header) values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (challenge_id, task) do update
           set body = excluded.body, documents = excluded.documents, items = excluded.items, loaded_at = now(),
               corpus_format = excluded.corpus_format, corpus_header = excluded.corpus_header`,
        [
          challengeId,
          task,
          body,
          counts.documents,
          counts.items,
          asLoaded?.format ?? null,
          asLoaded?.header ? JSON.stringify(asLoaded.header) : null,
        ],
      );
      await tx.query('delete from gold_documents where challenge_id = $1 and task = $2', [challengeId, task]);
      for (let i = 0; perDocument && i < perDocument.length; i += INSERT_CHUNK) {
        const chunk = perDocument.slice(i, i + INSERT_CHUNK);
        await tx.query(
          `insert into gold_documents (challenge_id, task, doc, body) select $1, $2, d, b from unnest($3::text[], $4::text[]) as u(d, b)`,
          [challengeId, task, chunk.map((d) => d.doc), chunk.map((d) => d.body)],
        );
      }
      await tx.query('delete from gold_corpus_documents where challenge_id = $1 and task = $2', [challengeId, task]);
      const corpus = asLoaded?.documents ?? [];
      for (let i = 0; i < corpus.length; i += INSERT_CHUNK) {
        const chunk = corpus.slice(i, i + INSERT_CHUNK);
        await tx.query(
          `insert into gold_corpus_documents (challenge_id, task, n, doc, body)
           select $1, $2, $3::int + k, d, b from unnest($4::text[], $5::text[]) with ordinality as u(d, b, k)`,
          [challengeId, task, i, chunk.map((d) => d.id), chunk.map((d) => JSON.stringify(d))],
        );
      }
    });
  }

  /** The corpus the task's gold was loaded from, documents in the corpus's order; null: none loaded, or loaded in the family's own form. */
  async goldCorpus(challengeId: number, task: TaskName): Promise<GoldCorpus | null> {
    const [gold] = await this.db.query<{ corpus_format: CorpusFormat | null; corpus_header: string | null }>(
      'select corpus_format, corpus_header from gold_standards where challenge_id = $1 and task = $2',
      [challengeId, task],
    );
    if (!gold?.corpus_format) return null;
    const rows = await this.db.query<{ body: string }>(
      'select body from gold_corpus_documents where challenge_id = $1 and task = $2 order by n',
      [challengeId, task],
    );
    return {
      format: gold.corpus_format,
      ...(gold.corpus_header ? { header: JSON.parse(gold.corpus_header) as CorpusHeader } : {}),
      documents: rows.map((r) => JSON.parse(r.body) as CorpusDocument),
    };
  }

  /** The gold's heading, without reading its body; null when none is loaded. */
  async goldHeading(challengeId: number, task: TaskName): Promise<GoldHeading | null> {
    const rows = await this.db.query<{ documents: number; items: number; loaded_at: Date; per_document: boolean }>(
      `select documents, items, loaded_at,
              exists (select 1 from gold_documents d where d.challenge_id = g.challenge_id and d.task = g.task) as per_document
       from gold_standards g where challenge_id = $1 and task = $2`,
      [challengeId, task],
    );
    const r = rows[0];
    return r ? { documents: r.documents, items: r.items, loadedAt: r.loaded_at, perDocument: r.per_document } : null;
  }

  /**
   * The next `limit` gold documents after `after` (by id; '' starts), read by key: the primary
   * key's order. Documents of background articles are left out: they are not scored
   * (migration 016); a document without an article stays, as in the whole gold.
   */
  async goldDocumentPage(challengeId: number, task: TaskName, after: string | null, limit: number): Promise<GoldDocument[]> {
    return await this.db.query<GoldDocument>(
      `select g.doc, g.body from gold_documents g
       where g.challenge_id = $1 and g.task = $2 and ($3::text is null or g.doc > $3)
         and not exists (select 1 from articles a where a.challenge_id = g.challenge_id and a.organiser_id = g.doc and not a.scored)
       order by g.doc limit $4`,
      [challengeId, task, after, limit],
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
