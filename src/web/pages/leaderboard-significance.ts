// What `?significance=1` adds to the leaderboard page: each ranked row's 95% bootstrap
// interval beside its main figures, a mark on the runs of the top group, a sentence saying
// what the group means and how it was computed, and the pairs' p values. The figures are
// the API's (board-significance.ts), formatted only.
import { html, type SafeHtml } from '../html.ts';
import { SIGNIFICANCE_LEVEL, type Interval } from '../../scoring/index.ts';
import type { SignificanceSummary } from '../../leaderboard/board-significance.ts';

/** Both ends with three decimals, as the figures: "(0.790–0.833)". */
const intervalText = (i: Interval): string => `(${i.low.toFixed(3)}–${i.high.toFixed(3)})`;

/** The interval under its figure; its words for screen readers are in the caption and here. */
export function intervalSpan(i: Interval): SafeHtml {
  return html`<span class="ci" data-ci-low="${i.low}" data-ci-high="${i.high}"><span class="visually-hidden">95% interval </span>${intervalText(i)}</span>`;
}

/** What a caption adds when the table shows intervals. */
export const INTERVALS_CAPTION = '; in parentheses: 95% bootstrap interval of each main figure';

/** The visible mark of a run in the top group (a word, not a colour only). */
export const topGroupMark = (): SafeHtml => html` <span class="top-group-mark">top group</span>`;

const SCOPES: Record<SignificanceSummary['scope'], string> = {
  'all pairs': 'every pair of runs compared',
  adjacent: 'each run compared with the next below it, and the best run with every other',
};

/** "p ≥ 0.05" for the level the API tests at. */
const level = `p ≥ ${SIGNIFICANCE_LEVEL}`;

/** The sentence above the table: what the top group is and how it was found. */
export function significanceSentence(s: SignificanceSummary): SafeHtml {
  const trials = s.trials.toLocaleString('en');
  return html`<p class="significance-note" data-significance>Runs in the <strong>top group</strong> are not significantly different from the best run (${s.method}, ${trials} trials, ${level}; scope: ${s.scope}, ${SCOPES[s.scope]}; no correction for multiple comparisons). In parentheses under each main figure: its 95% bootstrap interval over the gold's documents (${trials} resamples).</p>`;
}

/** A p value readable at any size: three decimals, or two significant digits below 0.001. */
const pText = (p: number): string => (p >= 0.001 ? p.toFixed(3) : p.toExponential(1));

/** The pairs compared with their p values, folded away under the sentence. */
export function pairsDetails(s: SignificanceSummary): SafeHtml {
  if (s.pairs.length === 0) return html``;
  const rows = s.pairs.map(
    (pair) =>
      html`<tr data-pair="${pair.a}|${pair.b}"><th scope="row">${pair.a}</th><td>${pair.b}</td><td>${pText(pair.p)}</td><td>${pair.p < SIGNIFICANCE_LEVEL ? 'yes' : 'no'}</td><td>${pair.exact ? 'yes' : 'no (sampled)'}</td></tr>`,
  );
  return html`<details class="significance-pairs"><summary>p values of the ${s.pairs.length} ${s.pairs.length === 1 ? 'pair' : 'pairs'} compared</summary>
<div class="table-scroll" tabindex="0" role="region" aria-labelledby="significance-pairs-caption"><table class="pairs"><caption id="significance-pairs-caption">Approximate randomization of the main F between two runs (${level}: not significantly different)</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Against</th><th scope="col">p</th><th scope="col">Significant (p &lt; ${SIGNIFICANCE_LEVEL})</th><th scope="col">Every swap enumerated</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}
