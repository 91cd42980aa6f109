// The organiser's pages of one challenge: its articles (filtered by state, each opening the
// article page) and its settings (deadline, attempts, back-off, servers per team).
import { html, type SafeHtml } from '../html.ts';
import { apiForm, fragment, NEEDS_TOKEN, textArea, textField, tokenBox } from '../layout.ts';
import type { Challenge } from '../../challenges/repository.ts';
import type { ArticlesPosition } from '../route-schemas.ts';
import { tasksWith } from '../../families/registry.ts';
import {
  ARTICLE_STATES,
  SERVER_OUTCOMES,
  type ArticleListRow,
  type ArticleListState,
  type ServerOutcome,
} from '../../articles/repository.ts';

export const ARTICLES_PAGE_SIZE = 100;

const STATE_WORDS: Record<ArticleListState, string> = {
  pending: 'not sent yet',
  running: 'servers at work',
  done: 'settled (all answered or failed)',
  failed: 'settled, some failed',
};

const OUTCOME_WORDS: Record<ServerOutcome, string> = {
  answered: 'answered',
  failed: 'failed for good',
  pending: 'not answered or failed yet',
};

/** One server's outcome to filter the list on (?server=ID&outcome=…). */
export interface ServerOutcomeFilter {
  server: number;
  outcome: ServerOutcome;
}

/** The filter of a query string, or null when it has none or a malformed one. */
export function serverOutcomeFilter(query: { server?: string; outcome?: string }): ServerOutcomeFilter | null {
  const outcome = SERVER_OUTCOMES.find((o) => o === query.outcome);
  return outcome && /^[1-9][0-9]{0,9}$/.test(query.server ?? '') ? { server: Number(query.server), outcome } : null;
}

const filterQuery = (state: ArticleListState | null, by: ServerOutcomeFilter | null): Record<string, string> => ({
  ...(state ? { state } : {}),
  ...(by ? { server: String(by.server), outcome: by.outcome } : {}),
});

export function articlesPageBody(
  c: Challenge,
  state: ArticleListState | null,
  at: ArticlesPosition,
  by: ServerOutcomeFilter | null = null,
): SafeHtml {
  const query = withQuery({ ...filterQuery(state, by), ...positionQuery(at) });
  return html`<h1>Articles of ${c.name} <span class="muted">(${c.slug})</span></h1>
<p><a href="/organiser">Back to the organiser page</a> · <a href="/challenges/${c.slug}/settings">Settings</a></p>
${tokenBox('organiser')}
<form class="inline card" method="get" action="/challenges/${c.slug}/articles" id="article-filter">
<label for="article-state">Show</label>
<select id="article-state" name="state"><option value=""${state ? '' : html` selected`}>all articles</option>${ARTICLE_STATES.map((s) => html`<option value="${s}"${s === state ? html` selected` : ''}>${s}: ${STATE_WORDS[s]}</option>`)}</select>
<label for="article-server">Server id</label><input id="article-server" name="server" type="text" inputmode="numeric" pattern="[1-9][0-9]{0,9}" size="6" value="${by ? String(by.server) : ''}">
<label for="article-outcome">whose outcome is</label>
<select id="article-outcome" name="outcome"><option value=""${by ? '' : html` selected`}>any</option>${SERVER_OUTCOMES.map((o) => html`<option value="${o}"${o === by?.outcome ? html` selected` : ''}>${OUTCOME_WORDS[o]}</option>`)}</select>
<button type="submit">Show</button>
</form>
${fragment(`/fragments/challenges/${c.slug}/articles${query}`, { label: 'Articles', pollMs: 5000, needsToken: NEEDS_TOKEN.organiser })}`;
}

const positionQuery = (at: ArticlesPosition): Record<string, string> =>
  at.after !== null ? { after: at.after } : at.offset > 0 ? { offset: String(at.offset) } : {};

export interface ArticleListJson {
  challenge: string;
  state: ArticleListState | null;
  server?: { id: number; name: string; outcome: ServerOutcome };
  /** Counted on a first page (no `after`) unless the fragment passed a key to spare the count. */
  total: number | null;
  offset: number;
  /** The key of the page after this one, null on the last page. */
  next: string | null;
  articles: ArticleListRow[];
}

/**
 * One page of the list. A page reached by a key (`at.after`) names no position: numbering it
 * would mean counting every article before the key, and articles loaded meanwhile would
 * shift the numbers anyway. It says instead how many it shows and which ones (the first and
 * last ids, in load order) — what a curator needs to tell pages apart and find their place
 * again —, and the first page carries the total where one is kept. For the same reason
 * there is no "Previous": a key leads forwards only, so the way back is the first page (or
 * the browser's back button, which returns to the page as it was linked).
 */
export function articlesFragment(list: ArticleListJson, at: ArticlesPosition): SafeHtml {
  const by = list.server ? html` that server ${list.server.name} (${String(list.server.id)}) ${OUTCOME_WORDS[list.server.outcome]}` : '';
  const filter = filterQuery(list.state, list.server ? { server: list.server.id, outcome: list.server.outcome } : null);
  const link = (position: Record<string, string>) => `/challenges/${list.challenge}/articles${withQuery({ ...filter, ...position })}`;
  const first = at.after !== null || at.offset > 0 ? html`<a href="${link({})}" data-first-page>First page</a>` : '';
  if (list.articles.length === 0) {
    if (first)
      return html`<p data-final-count="0">No more${list.state ? ` ${list.state}` : ''} articles${by}: the list ends before this page. ${first}</p>`;
    return html`<p data-final-count="0">${list.state ? `No article is ${list.state} (${STATE_WORDS[list.state]})` : list.server ? 'No article' : 'No articles loaded yet'}${by}.</p>`;
  }
  const n = list.articles.length;
  const name = (a: ArticleListRow) => a.organiserId ?? a.id;
  const state = list.state ? ` ${list.state}` : '';
  let where: SafeHtml;
  if (at.after !== null) {
    // No counter holds a state's total, so its first page has none to point back to.
    const total = list.state ? '' : ' (the first page has the total)';
    where = html`${n}${state} article${n === 1 ? '' : 's'}${by}, ${name(list.articles[0])} to ${name(list.articles[n - 1])} in load order${total}.`;
  } else {
    const last = list.offset + n;
    // Without a total (a state, which no counter holds), a last page still knows it exactly.
    const total = list.total ?? (list.next === null ? last : null);
    where =
      total === null
        ? html`Articles ${count(list.offset + 1)}–${count(last)} of more than ${count(last)}${state}${by} <span class="muted">(not counted: an article's state is read from every server it went to)</span>.`
        : html`Articles ${count(list.offset + 1)}–${count(last)} of ${count(total)}${state}${by}.`;
  }
  const next = list.next === null ? '' : html`<a href="${link({ after: list.next })}" data-next-page>Next ${ARTICLES_PAGE_SIZE}</a>`;
  return html`<p data-list-position>${where}</p>
<div class="table-scroll"><table class="articles"><caption>Articles and how far the servers got</caption>
<thead><tr><th scope="col">Article</th><th scope="col">State</th><th scope="col">Answered</th><th scope="col">Failed</th><th scope="col">Servers</th><th scope="col">Size</th></tr></thead>
<tbody>${list.articles.map((a) => html`<tr data-article-state="${a.state}"><th scope="row"><a href="/articles/${a.id}?as=organiser">${name(a)}</a></th><td><span class="state state-${a.state}">${a.state}</span> <span class="muted" data-summary>${a.summary}</span></td><td>${a.done}</td><td>${a.failed}</td><td>${a.servers}</td><td>${(a.bytes / 1024).toFixed(1)} KiB</td></tr>`)}</tbody></table></div>
${first || next ? html`<p>${first}${first && next ? ' · ' : ''}${next}</p>` : ''}`;
}

/** An old link's offset past what the list still skips: said in words, with the way to the same articles. */
export function articlesOffsetTooFar(
  c: { slug: string },
  state: ArticleListState | null,
  by: ServerOutcomeFilter | null,
  offset: number,
  max: number,
): SafeHtml {
  const first = `/challenges/${c.slug}/articles${withQuery(filterQuery(state, by))}`;
  return html`<p class="notice" data-final>This link starts at article ${count(offset + 1)}, counted from the first. The list no longer skips more than ${count(max)} articles (skipping reads every one of them): it goes from page to page instead. <a href="${first}" data-first-page>Start at the first page</a> and follow its "Next ${ARTICLES_PAGE_SIZE}" links.</p>`;
}

/** A count as people read it: 12,345. */
const count = (n: number) => n.toLocaleString('en');

const withQuery = (q: Record<string, string>) => {
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : '';
};

export function settingsPageBody(c: Challenge): SafeHtml {
  const num = (name: keyof Challenge, label: string, o: { min: number; hint: string; step?: string }) =>
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the settings shown here are numbers
    textField('settings', name, label, { type: 'number', min: o.min, step: o.step, value: String(c[name] ?? ''), hint: o.hint });
  return html`<h1>Settings of ${c.name} <span class="muted">(${c.slug})</span></h1>
<p><a href="/organiser">Back to the organiser page</a> · <a href="/challenges/${c.slug}/articles">Articles</a></p>
${tokenBox('organiser')}
<section class="card" aria-labelledby="settings-heading"><h2 id="settings-heading">How servers are called</h2>
<p>Changes apply to the attempts that start after saving.${c.phase === 'closed' ? ' The challenge is closed: it is frozen until reopened.' : ''}</p>
${apiForm({
  api: `/api/challenges/${c.slug}`,
  method: 'PATCH',
  then: 'none',
  say: 'settings',
  label: 'Save the settings',
  id: 'challenge-settings',
  fields: html`${textField('settings', 'name', 'Name', { required: true, value: c.name })}
${num('timeoutSeconds', 'Deadline per attempt, seconds', { min: 1, hint: 'How long a server has to answer one article (1 s to 24 h).' })}
${num('maxAttempts', 'Attempts per article', { min: 1, hint: 'Tries per article and server before it counts as failed (1–20).' })}
${num('retryDelaySeconds', 'Back-off before the second try, seconds', { min: 0, step: 'any', hint: 'Doubles with each further try, capped at 10 minutes.' })}
${num('serversPerTeam', 'Servers per team', { min: 1, hint: 'How many servers one team may register in this challenge.' })}`,
})}
</section>
${mapsSection(c)}`;
}

/** The scoring maps the leaderboard options ho and of need, for the tasks that take them. */
const MAPS = [
  {
    kind: 'ho',
    option: 'ho',
    title: 'Homonym-ortholog map',
    form: 'gold_accession<TAB>acc1,acc2,… (one line per gold accession; the accessions that count as the same protein)',
  },
  {
    kind: 'of',
    option: 'of',
    title: 'Organism map',
    form: "accession<TAB>taxon_id (one line per accession; answers of another organism than the gold's are left out)",
  },
] as const;

function mapsSection(c: Challenge): SafeHtml | '' {
  const wanted = MAPS.map((m) => ({
    ...m,
    tasks: tasksWith((f) => f.scoring.options.includes(m.option)).filter((t) => c.tasks.includes(t)),
  })).filter((m) => m.tasks.length > 0);
  if (wanted.length === 0) return '';
  return html`<section class="card" aria-labelledby="maps-heading"><h2 id="maps-heading">Scoring maps</h2>
<p>The leaderboard options "homonym-ortholog" (ho) and "organism filter" (of) score with these maps. Loading a map replaces the one loaded before; the leaderboards use the new one at once.</p>
${wanted.map(
  (m) => html`<h3 id="map-${m.kind}-heading">${m.title} <span class="muted">(${m.kind}, for ${m.tasks.join(', ')})</span></h3>
${apiForm({
  api: `/api/challenges/${c.slug}/maps/${m.kind}`,
  method: 'PUT',
  body: 'tsv',
  then: 'none',
  label: `Load the ${m.title.toLowerCase()}`,
  id: `load-map-${m.kind}`,
  fields: textArea(`map-${m.kind}`, 'body', `${m.title} (tab-separated)`, { rows: 6, required: true, hint: m.form }),
})}`,
)}
</section>`;
}
