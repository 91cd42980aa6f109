// The label set answers, gold standards and runs are checked against: the challenge's own
// (its `topicLabels` setting), or LitCovid's seven topics (BioCreative VII track 5, in the
// column order of its evaluation script) when it names none.

export const LITCOVID_TOPICS: readonly string[] = [
  'Treatment',
  'Diagnosis',
  'Prevention',
  'Mechanism',
  'Transmission',
  'Epidemic Forecasting',
  'Case Report',
];

/** The challenge's labels; LitCovid's seven when it names none (or outside a challenge). */
export function topicLabelsOf(context?: { topicLabels?: readonly string[] }): readonly string[] {
  return context?.topicLabels && context.topicLabels.length > 0 ? context.topicLabels : LITCOVID_TOPICS;
}
