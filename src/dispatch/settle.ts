// What a judged attempt leaves in the database, the same for an article sent by a queue
// worker (perform.ts) and one answered on lease by a pull server's agent (src/pull): a
// valid answer stored exactly once with its attempt, or the failure recorded, the delivery
// queued again or failed for good. 'closed': the challenge closed meanwhile, nothing stored.
import { RawJson } from '../shared/raw-json.ts';
import type { Verdict } from './judge.ts';
import type { AttemptOutcome, DispatchStore, FinishedAttempt } from './dispatch-store.ts';

export type Settlement =
  { kind: 'stored'; fresh: boolean } | { kind: 'closed' } | { kind: 'failed'; outcome: AttemptOutcome; detail: string; final: boolean };

/** `attempt` is completed from the verdict (outcome, detail, errors) and written. */
export async function settleVerdict(store: DispatchStore, attempt: FinishedAttempt, verdict: Verdict, final: boolean): Promise<Settlement> {
  if (verdict.outcome === 'ok') {
    const fresh = await store.storeAnswer(attempt, new RawJson(verdict.answer.result), new RawJson(verdict.answer.warnings));
    return fresh === 'closed' ? { kind: 'closed' } : { kind: 'stored', fresh };
  }
  attempt.outcome = verdict.outcome;
  attempt.detail = verdict.detail;
  if (verdict.answer) attempt.errors = new RawJson(verdict.answer.errors);
  if ((await store.recordFailure(attempt, final)) === 'closed') return { kind: 'closed' };
  return { kind: 'failed', outcome: verdict.outcome, detail: verdict.detail, final };
}
