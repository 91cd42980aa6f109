// Stored and uploaded inputs are parsed with the scoring library; its ScoringInputError
// becomes a 400 naming the place (line) and what to do.
import { ApiError } from '../http/api-error.ts';
import { ScoringInputError } from '../scoring/index.ts';

/** Runs a parse; a ScoringInputError becomes a 400 with its line, reason and hint. */
export function parseOr400<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ScoringInputError)) throw error;
    const line = error.line !== undefined ? ` at line ${error.line}` : '';
    throw new ApiError('invalid_input', `the ${what} was not accepted${line}: ${error.message}; nothing was stored`, {
      file: error.file,
      line: error.line,
      reason: error.reason,
      hint: error.hint,
    });
  }
}
