// What validation reports: each problem with its exact place, and the verdict on one
// answer. The normalised results themselves are the families' (src/families/*/types.ts),
// one entry per task in `AnswerResult` (src/families/registry.ts).

import type { AnswerResult } from '../families/registry.ts';

/** One problem found in an answer, with the exact place: `normalizations[3].confidence`. */
export interface ValidationIssue {
  path: string;
  message: string;
}

export interface ValidatedAnswer {
  result: AnswerResult;
  /** Non-empty → the answer is invalid; the attempt fails and is reissued. */
  errors: ValidationIssue[];
  /** The answer stays valid; items were dropped or mapped. */
  warnings: ValidationIssue[];
}
