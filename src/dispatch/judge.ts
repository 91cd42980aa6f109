// The verdict on one call to an annotation server, the same in dispatch, in the setup check
// and in `metaserver check-server`: a failed call keeps its kind, with a hint when a usual
// mistake explains it; an answer (already read and validated against the text as sent, see
// answer-reader.ts) with errors is `invalid`, its first errors named in the detail.
import type { ValidationIssue } from '../tasks/types.ts';
import type { CallOutcome, FailureKind } from './annotators/outcome.ts';
import type { AnswerText } from './decode-and-validate.ts';
import { failureHint, type ServerForHint } from './hints.ts';

/** The first errors and warnings (FIRST_ISSUES at most) and how many there are in all. */
interface Issues {
  errors: ValidationIssue[];
  errorCount: number;
  warnings: ValidationIssue[];
  warningCount: number;
}

export type Verdict =
  ({ outcome: 'ok'; answer: AnswerText } & Issues) | ({ outcome: FailureKind | 'invalid'; detail: string; answer?: AnswerText } & Issues);

/** Errors named in the detail; all of them are kept with the attempt. */
const ERRORS_SHOWN = 3;

const NO_ISSUES: Issues = { errors: [], errorCount: 0, warnings: [], warningCount: 0 };

export function judgeCall(call: CallOutcome<AnswerText>, server: ServerForHint): Verdict {
  if (!call.ok) return { outcome: call.kind, detail: call.detail + failureHint(call, server), ...NO_ISSUES };
  const answer = call.value;
  const issues: Issues = {
    errors: answer.firstErrors,
    errorCount: answer.errorCount,
    warnings: answer.firstWarnings,
    warningCount: answer.warningCount,
  };
  if (answer.errorCount === 0) return { outcome: 'ok', answer, ...issues };
  const shown = answer.firstErrors
    .slice(0, ERRORS_SHOWN)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
  const more = answer.errorCount > ERRORS_SHOWN ? ` (and ${answer.errorCount - ERRORS_SHOWN} more)` : '';
  return { outcome: 'invalid', detail: `the answer failed validation: ${shown}${more}`, answer, ...issues };
}
