// The verdict on one call to an annotation server, the same in dispatch, in the setup check
// and in `metaserver check-server`: a failed call keeps its kind, with a hint when a usual
// mistake explains it; an answer is validated against the text as sent, and one with
// errors is `invalid`, its first errors named in the detail and all of them kept.
import { validateAnswer, type ValidationContext } from '../tasks/validate.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { CallOutcome, FailureKind } from '../xmlrpc/client.ts';
import { failureHint } from './hints.ts';
import type { ServerForCall } from './request-body.ts';

export type Verdict =
  | { outcome: 'ok'; result: AnswerResult; warnings: ValidationIssue[] }
  | { outcome: FailureKind | 'invalid'; detail: string; errors: ValidationIssue[]; warnings: ValidationIssue[] };

/** Errors named in the detail; all of them are kept with the attempt. */
const ERRORS_SHOWN = 3;

export function judgeCall(call: CallOutcome, server: Pick<ServerForCall, 'tasks' | 'sendMetadata'> & { url: string }, validation: ValidationContext): Verdict {
  if (!call.ok) return { outcome: call.kind, detail: call.detail + failureHint(call, server), errors: [], warnings: [] };
  const validated = validateAnswer(call.value, validation);
  if (validated.errors.length === 0) return { outcome: 'ok', result: validated.result, warnings: validated.warnings };
  const shown = validated.errors.slice(0, ERRORS_SHOWN).map((e) => `${e.path}: ${e.message}`).join('; ');
  const more = validated.errors.length > ERRORS_SHOWN ? ` (and ${validated.errors.length - ERRORS_SHOWN} more)` : '';
  return { outcome: 'invalid', detail: `the answer failed validation: ${shown}${more}`, errors: validated.errors, warnings: validated.warnings };
}
