// One group-commit batch of dispatch writes (see group-commit.ts): the starts of attempts
// and their ends — answers stored, failures recorded — of many jobs, written by one call of
// the database function dispatch_write_batch (migration 005), in one round trip and one
// transaction, however many jobs the batch holds.
import { sqlLiteral, type Database } from '../db/database.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import { stringifyWithRaw, type RawJson } from '../shared/raw-json.ts';
import type { DeliveryState } from '../articles/status.ts';
import type { FailureKind } from './annotators/outcome.ts';

// The attempt types live here, not in dispatch-store.ts (which re-exports them): the store builds on
// this file, and a type import back would close a circle.
// interrupted: a worker of ours stopped mid-request; released: a pull server's agent gave its
// lease back. Neither is the server's failure.
export type AttemptOutcome = 'ok' | FailureKind | 'invalid' | 'interrupted' | 'released';

export interface FinishedAttempt {
  articleId: string;
  serverId: number;
  n: number;
  ms: number;
  outcome: AttemptOutcome;
  detail: string | null;
  /** The validation errors, or their JSON text as read off the main thread. */
  errors?: ValidationIssue[] | RawJson;
  bytesSent: number;
  bytesReceived: number;
}

export type DispatchWrite =
  | { kind: 'begin'; articleId: string; serverId: number }
  | {
      kind: 'finish';
      attempt: FinishedAttempt;
      state: Exclude<DeliveryState, 'active'>;
      result?: AnswerResult | RawJson;
      warnings?: ValidationIssue[] | RawJson;
    };

/**
 * begin: the attempt's number, or null (answered already); finish: true when it stored a new
 * answer. Either: 'closed' when the article's challenge is closed (nothing begun or stored).
 */
export type DispatchWriteResult = number | null | boolean | 'closed';

/** Article × server: the unit of every dispatch write (uuids compared in PostgreSQL's lower case). */
export const deliveryKey = (articleId: string, serverId: number): string => `${articleId.toLowerCase()}/${serverId}`;

export function describeWrites(ops: DispatchWrite[]): string {
  const begins = ops.filter((o) => o.kind === 'begin').length;
  const stored = ops.filter((o) => o.kind === 'finish' && o.result).length;
  const failed = ops.length - begins - stored;
  const parts = [
    begins > 0 ? `record the start of ${begins} attempt(s)` : '',
    stored > 0 ? `store ${stored} answer(s)` : '',
    failed > 0 ? `record ${failed} failed attempt(s)` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * Writes ops; results in the order of ops. The values travel as two JSON literals in one
 * parameterless statement: the simple query protocol, the cheapest round trip with both
 * PostgreSQL and PGlite. Keys left out of the JSON are SQL nulls.
 */
export async function writeDispatchBatch(
  db: Pick<Database, 'script' | 'kind'>,
  ops: DispatchWrite[],
  opts: { durable: boolean } = { durable: true },
): Promise<DispatchWriteResult[]> {
  const begins: object[] = [];
  const finishes: object[] = [];
  ops.forEach((op, i) => {
    if (op.kind === 'begin') {
      // Every attempt starts only if no answer is stored yet (a redelivered job writes nothing);
      // the database function (migration 005) still takes the choice per row.
      begins.push({ i, article_id: op.articleId, server_id: op.serverId, unless_answered: true });
      return;
    }
    const a = op.attempt;
    finishes.push({
      i,
      article_id: a.articleId,
      server_id: a.serverId,
      n: a.n,
      ms: a.ms,
      outcome: a.outcome,
      // PostgreSQL text cannot hold NUL; a detail may quote what a server sent.
      detail: a.detail?.replaceAll('\u0000', '\ufffd'),
      errors: a.errors,
      bytes_sent: a.bytesSent,
      bytes_received: a.bytesReceived,
      state: op.state,
      result: op.result,
      warnings: op.warnings,
    });
  });
  // Answers read off the main thread arrive as JSON text (RawJson) and are spliced in as is.
  const json = (items: object[]) => (items.length === 0 ? `'[]'` : sqlLiteral(stringifyWithRaw(items)));
  // PGlite belongs to this one process, whose group commit never has two writes of one
  // pair in flight, and whose phase changes run between batches: nothing to lock against.
  const takeLocks = db.kind !== 'pglite';
  const call = `select i, n from dispatch_write_batch(${json(begins)}::jsonb, ${json(finishes)}::jsonb, ${takeLocks})`;
  // Not durable (starts of attempts only, see DispatchStore): committed, and so seen by every
  // other transaction, at once, but without waiting for the disk; the two statements are one
  // implicit transaction, so the setting ends with it.
  const relaxed = !opts.durable && db.kind !== 'pglite';
  const sets = await db.script(relaxed ? `set local synchronous_commit = off; ${call}` : call);
  const rows = sets[sets.length - 1];
  const results = new Array<DispatchWriteResult>(ops.length).fill(false);
  for (const row of rows as Array<{ i: number; n: number | null }>) {
    // n = 0: the challenge is closed (see migration 006).
    results[row.i] = row.n === 0 ? 'closed' : ops[row.i].kind === 'begin' ? row.n : true;
  }
  return results;
}
