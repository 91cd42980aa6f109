// The leaderboard's options as the scores route takes them (`?cutoff=&all=&beta=&ho=&of=&
// singleClass=&consensus=&significance=&trials=`): a plain GET form on the page, the same
// query string passed on to the fragment and the downloads, and a sentence saying which
// options a table shows.
import { html, type SafeHtml } from '../html.ts';
import type { ScoreOption } from '../../families/family.ts';
import { officialAsked } from './leaderboard-boards.ts';
import { DEFAULT_TRIALS, MAX_TRIALS, MIN_TRIALS } from '../../leaderboard/board-significance.ts';

/** The query parameters the scores route takes that the page passes on (never `format`). */
const SCORE_PARAMETERS = ['cutoff', 'all', 'beta', 'ho', 'of', 'singleClass', 'consensus', 'significance', 'trials'] as const;
const FLAGS = new Set(['all', 'ho', 'of', 'singleClass', 'consensus', 'significance']);

/**
 * `?cutoff=5&ho=1` from a request's query: known parameters only, empty ones and unticked
 * flags left out. `trials` goes only with `significance` (the API refuses it alone, and the
 * form keeps the number when the box is unticked). `board=official` alone, when asked.
 */
export function scoreQueryString(query: Record<string, string | undefined>): string {
  // The official board takes no option (it is kept with the default ones).
  if (officialAsked(query)) return '?board=official';
  const params = new URLSearchParams();
  for (const name of SCORE_PARAMETERS) {
    const value = query[name]?.trim();
    if (value === undefined || value === '') continue;
    if (FLAGS.has(name) && (value === '0' || value === 'false')) continue;
    if (name === 'trials' && !params.has('significance')) continue;
    params.set(name, value);
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

const DESCRIBED: Record<string, (value: unknown) => string> = {
  cutoff: (v) => `first ${String(v)} results per document`,
  all: () => 'every gold document evaluated',
  beta: (v) => `F-beta with β = ${String(v)}`,
  ho: () => 'homonym-ortholog mapping',
  of: () => 'organism filter',
  singleClass: () => 'single class (types ignored)',
};

/** " (first 5 results per document; organism filter)" for the options the API echoed; "" for none. */
export function optionsSentence(options: Record<string, unknown>): string {
  const parts = Object.entries(options).flatMap(([k, v]) =>
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the options the API echoes are numbers, strings and booleans
    v === false || v === undefined ? [] : [DESCRIBED[k]?.(v) ?? `${k} ${String(v)}`],
  );
  return parts.length ? ` (${parts.join('; ')})` : '';
}

const flagOn = (v: string | undefined) => v === '1' || v === 'true';

function checkbox(name: string, label: string, hint: string, query: Record<string, string | undefined>): SafeHtml {
  const id = `board-${name}`;
  return html`<div class="check-field"><span class="check"><input type="checkbox" id="${id}" name="${name}" value="1"${flagOn(query[name]) ? html` checked` : ''} aria-describedby="${id}-hint"><label for="${id}">${label}</label></span><p class="hint" id="${id}-hint">${hint}</p></div>`;
}

function numberField(
  name: string,
  label: string,
  hint: string,
  query: Record<string, string | undefined>,
  o: { min: string; max?: string; step: string },
): SafeHtml {
  const id = `board-${name}`;
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" type="number" min="${o.min}"${o.max === undefined ? '' : html` max="${o.max}"`} step="${o.step}" inputmode="decimal" value="${query[name] ?? ''}" aria-describedby="${id}-hint"><p class="hint" id="${id}-hint">${hint}</p></div>`;
}

/** What the task's family offers besides its scoring options. */
export interface BoardExtras {
  /** The family votes: consensus rows (kind C) can be added. */
  consensus: boolean;
  /** The family gives per-document counts (`scoring.documentCounts`): intervals and significance can be asked. */
  significance: boolean;
}

/** The significance box and its trials (the API's bounds and default). */
function significanceFields(query: Record<string, string | undefined>): SafeHtml[] {
  return [
    checkbox(
      'significance',
      'Significance',
      'Add 95% bootstrap intervals to the main figures and test which runs differ significantly from the best (approximate randomization).',
      query,
    ),
    numberField(
      'trials',
      'Trials',
      `Resamples and shuffles, ${MIN_TRIALS.toLocaleString('en')} to ${MAX_TRIALS.toLocaleString('en')}; empty: ${DEFAULT_TRIALS.toLocaleString('en')}. Used with significance only.`,
      query,
      { min: String(MIN_TRIALS), max: String(MAX_TRIALS), step: '1' },
    ),
  ];
}

/** Only the options the task's family takes; consensus rows where the family votes, significance where it counts per document. */
export function leaderboardOptionsForm(
  slug: string,
  task: string,
  options: readonly ScoreOption[],
  extras: BoardExtras,
  query: Record<string, string | undefined>,
): SafeHtml {
  const fields: SafeHtml[] = [];
  if (options.includes('cutoff'))
    fields.push(
      numberField(
        'cutoff',
        'Cut-off (results per document)',
        'Score only the first k results of each document; empty: all of them.',
        query,
        { min: '1', step: '1' },
      ),
    );
  if (options.includes('beta'))
    fields.push(
      numberField(
        'beta',
        'β for F-beta',
        'Also report the macro F-beta (the BC II.5 user-centric figure used β = 10); empty: none.',
        query,
        { min: '0', step: 'any' },
      ),
    );
  if (options.includes('all'))
    fields.push(checkbox('all', 'Evaluate every gold document', 'Also count gold documents a run has no result for (as misses).', query));
  if (options.includes('ho'))
    fields.push(
      checkbox(
        'ho',
        'Homonym-ortholog mapping',
        "Count an accession as its mapped homonym or ortholog (needs the map the organiser loads on the challenge's Settings page).",
        query,
      ),
    );
  if (options.includes('of'))
    fields.push(
      checkbox(
        'of',
        'Organism filter',
        "Score only proteins of the organisms in the organism map (needs the map the organiser loads on the challenge's Settings page).",
        query,
      ),
    );
  if (options.includes('singleClass'))
    fields.push(checkbox('singleClass', 'Single class', 'Ignore entity types: a mention matches whatever its type.', query));
  if (extras.significance) fields.push(...significanceFields(query));
  if (extras.consensus)
    fields.push(
      checkbox(
        'consensus',
        'Add the consensus',
        "Add the servers' voting consensus (and the latest trained ensemble, where there is one) as runs of kind C.",
        query,
      ),
    );
  if (fields.length === 0) return html``;
  const path = `/challenges/${encodeURIComponent(slug)}/leaderboard/${encodeURIComponent(task)}`;
  return html`<form class="card board-options" method="get" action="${path}" aria-labelledby="board-options-heading"><h2 id="board-options-heading">Options</h2>
<div class="board-option-fields">${fields}</div>
<div class="buttons"><button type="submit">Apply</button> <a class="button-link" href="${path}">Reset</a></div></form>`;
}
