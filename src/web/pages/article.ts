// For everyone: the home page (submit an article on demand) and the article page (BCMS
// "article view"): the text with every server's mentions in the annotation viewer (../viewer.ts:
// colours by type, per-server and consensus switches, who found the selected mention), verdicts
// as a positive/negative bar, topics and ranked lists per server, and the voting consensus when the
// API has one. Built from `GET /api/articles/:id`; what each task shows is its family's
// `web` part (src/families/*), in registry order.
import { fmt, html, type SafeHtml } from '../html.ts';
import { buildViewer, sourceToggles, typeLegend, type ViewerSource } from '../viewer.ts';
import { apiForm, fragment, NEEDS_TOKEN, select, textArea } from '../layout.ts';
import { hasClosed, type Challenge } from '../../challenges/repository.ts';
import type { AnswerView, WebItem } from '../../families/family.ts';
import { ALL_FAMILIES } from '../../families/registry.ts';
import { itemContext } from '../item-context.ts';

interface ServerAnswer {
  serverId: number;
  name: string;
  /** The annotator protocol it speaks (absent from answers stored before it was shown). */
  protocol?: string;
  team: string;
  state: string;
  attempts: number;
  lastOutcome: string | null;
  lastDetail: string | null;
  /** Each task's result, by task name. */
  result?: Record<string, unknown>;
}
export interface ArticleJson {
  id: string;
  organiserId: string | null;
  challenge: string;
  status: string;
  /** How many servers answered and failed for good (absent for a team, which sees its own servers only). */
  progress?: { servers: number; answered: number; failed: number; summary: string };
  sourceFormat: string;
  text: string;
  servers: ServerAnswer[];
  /** The threshold, and each voted task's consensus by task name. */
  consensus?: { threshold?: number } & Record<string, unknown>;
}

type View<K extends AnswerView<unknown>['kind']> = Extract<AnswerView<unknown>, { kind: K }>;

/** The families whose answers pages show in this way, each with its view; of the challenge's tasks only, when given. */
function viewing<K extends AnswerView<unknown>['kind']>(kind: K, tasks?: readonly string[]): Array<{ name: string; view: View<K> }> {
  return ALL_FAMILIES.flatMap((f) =>
    f.web.answer?.kind === kind && (!tasks || tasks.includes(f.name)) ? [{ name: f.name, view: f.web.answer as View<K> }] : [],
  );
}

/** More servers than this: the servers table starts folded, under a one-line summary. */
const UNFOLDED_SERVERS = 6;

/** `needsToken`: the article is a challenge's, which only the organiser and its teams may read. */
export function articlePageBody(id: string, needsToken = false): SafeHtml {
  return html`<h1>Article</h1>
<p>The annotations of every server this article was sent to; the page updates every 2 seconds until all servers have answered or failed.</p>
${fragment(`/fragments/articles/${encodeURIComponent(id)}`, { pollMs: 2000, label: 'Article and annotations', ...(needsToken ? { needsToken: NEEDS_TOKEN.article } : {}) })}`;
}

/** Verdicts as one bar: the positive share on the left, the negative on the right. */
function verdictBar(task: string, view: View<'verdict'>, servers: ServerAnswer[], labels: Map<number, string>): SafeHtml {
  const verdicts = servers.flatMap((s) =>
    s.result?.[task] === undefined ? [] : [{ name: labels.get(s.serverId) ?? s.name, ...view.verdict(s.result[task]) }],
  );
  if (verdicts.length === 0) return html`<p>No ${task} verdicts yet.</p>`;
  const positive = verdicts.filter((v) => v.positive).length;
  const negative = verdicts.length - positive;
  const width = 300;
  const posWidth = Math.round((positive / verdicts.length) * width);
  const label = `${positive} positive, ${negative} negative`;
  return html`<svg class="act-bar" viewBox="0 0 ${width} 24" width="${width}" height="24" role="img" aria-label="${task}: ${label}"><rect class="positive" x="0" y="0" width="${posWidth}" height="24"/><rect class="negative" x="${posWidth}" y="0" width="${width - posWidth}" height="24"/></svg>
<p class="act-summary">${label}</p>
<ul class="compact">${verdicts.map((v) => html`<li>${v.name}: ${v.positive ? 'relevant' : 'not relevant'} (confidence ${fmt(v.confidence, 2)})</li>`)}</ul>`;
}

/** One item: its label (a link to the database entry when there is one), then quieter details; spans it is about, in the text. */
function itemHtml(i: WebItem, text = ''): SafeHtml {
  return html`<li>${i.href ? html`<a href="${i.href}" rel="external">${i.label}</a>` : i.label}${i.marks ? html` ${itemContext(text, i.marks)}` : ''}${i.detail !== undefined ? html` <span class="muted">${i.detail}</span>` : ''}${
    i.links
      ? html` ${i.links.map((l, k) => html`${k > 0 ? ', ' : ''}${l.href ? html`<a href="${l.href}" rel="external">${l.label}</a>` : l.label}`)}`
      : ''
  }${
    i.confidence !== undefined ? html` <span class="muted">${fmt(i.confidence, 2)}</span>` : ''
  }${i.share !== undefined ? html` <span class="muted">share ${fmt(i.share, 2)}, ${i.servers ?? 0} server(s)</span>` : ''}</li>`;
}

/** Each server's items in a card of its own: numbered when they are ranked, else (`labels`) not. */
function serverCards(
  task: string,
  view: View<'list' | 'labels'>,
  servers: ServerAnswer[],
  labels: Map<number, string>,
  text: string,
): SafeHtml {
  const answering = servers.filter((s) => s.result?.[task] !== undefined);
  if (answering.length === 0) return html`<p>No server has answered this task yet.</p>`;
  return html`<div class="columns">${answering.map((s) => {
    const items = view.items(s.result![task]).map((i) => itemHtml(i, text));
    return html`<section class="list-card"><h4>${labels.get(s.serverId) ?? s.name}</h4>${
      items.length === 0
        ? html`<p>none</p>`
        : view.kind === 'list'
          ? html`<ol class="compact">${items}</ol>`
          : html`<ul class="compact">${items}</ul>`
    }</section>`;
  })}</div>`;
}

const rankedList = (task: string, view: View<'list'>, servers: ServerAnswer[], labels: Map<number, string>, text: string): SafeHtml =>
  html`<h3>${view.heading}</h3>${serverCards(task, view, servers, labels, text)}`;

function consensusSection(c: NonNullable<ArticleJson['consensus']>, text: string): SafeHtml {
  const parts = ALL_FAMILIES.flatMap((f) => {
    // Voted spans are shown in the text (the viewer's consensus switch), not listed again.
    if (f.web.answer?.kind === 'spans') return [];
    const vote = c[f.name];
    const shown = vote === undefined || !f.web.consensus ? undefined : f.web.consensus(vote);
    if (!shown) return [];
    return 'summary' in shown
      ? [html`<p>${shown.summary}</p>`]
      : [html`<h3>${shown.heading}</h3><ul class="compact">${shown.items.map((i) => itemHtml(i, text))}</ul>`];
  });
  return html`<section aria-labelledby="consensus-heading"><h2 id="consensus-heading">Consensus${c.threshold !== undefined ? ` (threshold ${c.threshold})` : ''}</h2>
${parts}
</section>`;
}

/** "name (team)", the server id added where two would still read alike. */
export function serverLabels(servers: readonly Pick<ServerAnswer, 'serverId' | 'name' | 'team'>[]): Map<number, string> {
  const plain = servers.map((s) => `${s.name} (${s.team})`);
  return new Map(
    servers.map((s, i) => [s.serverId, plain.filter((p) => p === plain[i]).length > 1 ? `${plain[i]} #${s.serverId}` : plain[i]]),
  );
}

/** Each server with mentions, then the consensus (hidden at first) when there is one. */
function viewerSources(a: ArticleJson, labels: Map<number, string>, tasks?: readonly string[]): ViewerSource[] {
  const spanViews = viewing('spans', tasks);
  const sources: ViewerSource[] = a.servers.flatMap((s) => {
    const answered = spanViews.filter(({ name }) => s.result?.[name] !== undefined);
    if (answered.length === 0) return [];
    return [{ label: labels.get(s.serverId)!, shown: true, mentions: answered.flatMap(({ name, view }) => view.spans(s.result![name])) }];
  });
  const voted = spanViews.flatMap(({ name, view }) => {
    const vote = a.consensus?.[name] as { items?: unknown } | undefined;
    return Array.isArray(vote?.items) ? view.spans(vote.items) : [];
  });
  if (a.consensus && spanViews.some(({ name }) => a.consensus?.[name] !== undefined)) {
    sources.push({
      label: `Consensus (voting${a.consensus.threshold !== undefined ? `, threshold ${a.consensus.threshold}` : ''})`,
      shown: false,
      consensus: true,
      mentions: voted,
    });
  }
  return sources;
}

/**
 * The text, in a scrolling region of its own so that the answers stay a short scroll away:
 * with the viewer when the challenge has a task with mentions, else plain (and no "no
 * mentions yet" for a task the challenge does not have).
 */
function viewerSection(a: ArticleJson, labels: Map<number, string>, tasks?: readonly string[]): SafeHtml {
  const spanViews = viewing('spans', tasks);
  if (spanViews.length === 0) {
    return html`<section aria-labelledby="text-heading"><h2 id="text-heading">Text</h2>
<div class="article-text text-region" data-article-text tabindex="0" role="region" aria-label="Article text (scrolls)">${a.text}</div></section>`;
  }
  const heading = spanViews.map(({ view }) => view.heading).join('; ');
  const sources = viewerSources(a, labels, tasks);
  if (sources.length === 0) {
    return html`<section aria-labelledby="text-heading"><h2 id="text-heading">${heading}</h2><p class="legend-text">No server has sent mentions for this article yet.</p>
<div class="article-text text-region" data-article-text tabindex="0" role="region" aria-label="Article text (scrolls)">${a.text}</div></section>`;
  }
  const viewer = buildViewer(a.text, sources);
  return html`<section aria-labelledby="text-heading" class="viewer" data-viewer><h2 id="text-heading">${heading}</h2>
<div class="viewer-controls">${sourceToggles(sources)}${typeLegend(viewer.types, viewer.typeCounts)}
<p class="hint" id="viewer-hint">Select a highlighted mention to see which servers found it: click or tap it, or press Tab to reach the text and move between mentions with the arrow keys (Home and End: first and last).</p></div>
<div class="viewer-body"><div class="article-text text-region" data-article-text aria-describedby="viewer-hint">${viewer.text}</div>
<aside class="viewer-panel" aria-labelledby="viewer-panel-heading"><h3 id="viewer-panel-heading">Selected mention</h3><div data-viewer-panel aria-live="polite"><p class="muted">None selected yet.</p></div></aside></div>
${viewer.data}</section>`;
}

/** What the page's heading calls the article: its first line (the title), shortened; else its id. */
function articleName(a: Pick<ArticleJson, 'id' | 'organiserId' | 'text'>): string {
  const first = a.text.split('\n', 1)[0].trim();
  if (first === '') return `Article ${a.organiserId ?? a.id}`;
  const points = Array.from(first);
  return points.length > 100 ? `${points.slice(0, 99).join('').trimEnd()}…` : first;
}

/** One compact row per server; folded under the counts when there are many. */
function serversSection(a: ArticleJson): SafeHtml {
  if (a.servers.length === 0) {
    return html`<section aria-labelledby="servers-heading"><h2 id="servers-heading">Servers</h2><p>Not sent to any server yet: no server is started in this challenge.</p></section>`;
  }
  const table = html`<div class="table-scroll" tabindex="0" role="region" aria-label="Servers (scrolls sideways)"><table class="compact-table"><caption>Each server's state for this article</caption>
<thead><tr><th scope="col">Server</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last outcome</th></tr></thead>
<tbody>${a.servers.map((s) => html`<tr><td>${s.name} <span class="muted">(${s.team}, ${s.protocol ?? 'xmlrpc'})</span></td><td><span class="state state-${s.state}">${s.state}</span></td><td>${s.attempts}</td><td class="detail">${s.lastOutcome ?? '—'}${s.lastDetail ? html`: ${s.lastDetail}` : ''}</td></tr>`)}</tbody></table></div>`;
  const summary = a.progress?.summary ?? `${a.servers.length} ${a.servers.length === 1 ? 'server' : 'servers'}`;
  return html`<section aria-labelledby="servers-heading"><h2 id="servers-heading">Servers</h2>
<details class="servers-fold"${a.servers.length <= UNFOLDED_SERVERS ? html` open` : ''}><summary>${summary}</summary>${table}</details></section>`;
}

/**
 * The page at 20 servers: the counts and a table of contents first, then each task's answers
 * (verdicts, ranked lists, consensus), then the text in its own scrolling region, then the
 * servers. Only the challenge's tasks show (all, when they are not known).
 */
export function articleFragment(a: ArticleJson, tasks?: readonly string[]): SafeHtml {
  const labels = serverLabels(a.servers);
  const lists = viewing('list', tasks);
  const verdicts = viewing('verdict', tasks);
  const labelSets = viewing('labels', tasks);
  const final = a.status === 'done';
  const contents: Array<[string, string]> = [
    ...verdicts.map(({ name, view }): [string, string] => [`${name.toLowerCase()}-heading`, view.heading]),
    ...labelSets.map(({ name, view }): [string, string] => [`${name.toLowerCase()}-heading`, view.heading]),
    ...(lists.length > 0 ? [['lists-heading', 'Ranked lists'] as [string, string]] : []),
    ...(a.consensus ? [['consensus-heading', 'Consensus'] as [string, string]] : []),
    ['text-heading', viewing('spans', tasks).length > 0 ? 'Text and mentions' : 'Text'],
    ['servers-heading', 'Servers'],
  ];
  return html`<div${final ? html` data-final` : ''}>
<span hidden data-heading="${articleName(a)}" data-heading-note="article ${a.organiserId ?? a.id} of ${a.challenge}"></span>
<p class="article-meta">Status: <strong data-article-status>${a.status}</strong>${a.progress ? html` — <span data-article-progress>${a.progress.summary}</span>` : ''} · challenge ${a.challenge}${a.organiserId ? html` · id ${a.organiserId}` : ''} · from ${a.sourceFormat}</p>
<nav class="article-contents" aria-label="On this page"><ul class="links">${contents.map(([id, label]) => html`<li><a href="#${id}">${label}</a></li>`)}</ul></nav>
${verdicts.map(({ name, view }) => {
  const id = `${name.toLowerCase()}-heading`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${view.heading}</h2>${verdictBar(name, view, a.servers, labels)}</section>`;
})}
${labelSets.map(({ name, view }) => {
  const id = `${name.toLowerCase()}-heading`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${view.heading}</h2>${serverCards(name, view, a.servers, labels, a.text)}</section>`;
})}
${
  lists.length > 0
    ? html`<section aria-labelledby="lists-heading"><h2 id="lists-heading">Ranked lists</h2>
${lists.map(({ name, view }) => rankedList(name, view, a.servers, labels, a.text))}
</section>`
    : ''
}
${a.consensus ? consensusSection(a.consensus, a.text) : ''}
${viewerSection(a, labels, tasks)}
${serversSection(a)}
</div>`;
}

export function homePageBody(challenges: Challenge[]): SafeHtml {
  return html`<h1>metaserver</h1>
<p class="lead">An annotation meta-server in the style of the BioCreative Meta-Server: teams register their text-mining servers, every article goes to every server, and each answer is validated, stored and scored against the gold standard.</p>
<ul class="links">
<li><a href="/team">Teams</a>: register your team and annotation servers, start them, follow their progress and errors.</li>
<li><a href="/organiser">Organisers</a>: challenges and phases, articles and gold standards, every server at a glance, leaderboards.</li>
<li><a href="/docs">The JSON API</a>, described with OpenAPI.</li>
</ul>
<section class="card" aria-labelledby="submit-heading"><h2 id="submit-heading">Annotate an article</h2>
<p>Send one article to every started server of the on-demand (live) challenge and watch their answers arrive.</p>
${apiForm({
  api: '/api/articles',
  body: 'article',
  then: 'goto:/articles/{id}',
  label: 'Submit the article',
  id: 'submit-article',
  fields: html`${select('submit', 'format', 'Format', [
    ['text', 'Plain text'],
    ['xml', 'JATS XML'],
  ])}${textArea('submit', 'content', 'Article', { rows: 8, required: true })}`,
})}
</section>
${challenges.length > 0 ? html`<section aria-labelledby="challenges-heading"><h2 id="challenges-heading">Challenges</h2><ul>${challenges.map((c) => html`<li>${c.name} <span class="muted">(${c.slug}, ${c.phase}; ${c.tasks.join(', ')})</span>${!hasClosed(c) ? '' : c.leaderboardPublished ? html` — leaderboards: ${c.tasks.map((t) => html` <a href="/challenges/${c.slug}/leaderboard/${t}">${t}</a>`)}` : html` <span class="muted">— leaderboards not published yet</span>`}</li>`)}</ul></section>` : ''}`;
}
