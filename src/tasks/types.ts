// What validation reports: each problem with its exact place. The verdict on one answer
// (ValidatedAnswer) is src/families/validate.ts's; the normalised results themselves are
// the families' (src/families/*/types.ts), one entry per task in `AnswerResult`
// (src/families/registry.ts).

/** One problem found in an answer, with the exact place: `normalizations[3].confidence`. */
export interface ValidationIssue {
  path: string;
  message: string;
}
