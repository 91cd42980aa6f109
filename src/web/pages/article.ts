// For everyone: the home page (submit an article on demand) and the article page (BCMS
// "article view"): the text with every mention highlighted by how many servers agree, the
// ACT verdicts as a positive/negative bar, INT/IPT lists per server, and the voting
// consensus when the API has one. Built from `GET /api/articles/:id`.
import { fmt, html, type SafeHtml } from '../html.ts';
import { agreementLegend, highlightMentions } from '../highlight.ts';
import { apiForm, fragment, select, textArea } from '../layout.ts';
import type { Challenge } from '../../challenges/repository.ts';

interface Ranked { rank?: number; confidence?: number }
interface ServerAnswer {
  serverId: number;
  name: string;
  team: string;
  state: string;
  attempts: number;
  lastOutcome: string | null;
  lastDetail: string | null;
  result?: {
    ACT?: { relevant: boolean; confidence: number };
    INT?: Array<Ranked & { accession: string; taxid?: number }>;
    IPT?: Array<Ranked & { a: string; b: string }>;
    MENTION?: Array<{ start: number; end: number; text: string; type?: string; confidence?: number }>;
  };
}
interface Voted { share: number; servers: unknown[] }
export interface ArticleJson {
  id: string;
  organiserId: string | null;
  challenge: string;
  status: string;
  sourceFormat: string;
  text: string;
  servers: ServerAnswer[];
  consensus?: {
    threshold?: number;
    ACT?: { relevant: boolean; confidence: number; support: { relevant: number; irrelevant: number } };
    INT?: { items: Array<Voted & { accession: string }> };
    IPT?: { items: Array<Voted & { a: string; b: string }> };
    MENTION?: { items: Array<Voted & { start: number; end: number; text: string }> };
  };
}

export function articlePageBody(id: string): SafeHtml {
  return html`<h1>Article</h1>
<p>The annotations of every server this article was sent to; the page updates every 2 seconds until all servers have answered or failed.</p>
${fragment(`/fragments/articles/${encodeURIComponent(id)}`, { pollMs: 2000, label: 'Article and annotations' })}`;
}

/** ACT verdicts as one bar: the positive share on the left, the negative on the right. */
function actBar(servers: ServerAnswer[]): SafeHtml {
  const verdicts = servers.filter((s) => s.result?.ACT).map((s) => ({ name: s.name, ...s.result!.ACT! }));
  if (verdicts.length === 0) return html`<p>No ACT verdicts yet.</p>`;
  const positive = verdicts.filter((v) => v.relevant).length;
  const negative = verdicts.length - positive;
  const width = 300;
  const posWidth = Math.round((positive / verdicts.length) * width);
  const label = `${positive} positive, ${negative} negative`;
  return html`<svg class="act-bar" viewBox="0 0 ${width} 24" width="${width}" height="24" role="img" aria-label="ACT: ${label}"><rect class="positive" x="0" y="0" width="${posWidth}" height="24"/><rect class="negative" x="${posWidth}" y="0" width="${width - posWidth}" height="24"/></svg>
<p class="act-summary">${label}</p>
<ul class="compact">${verdicts.map((v) => html`<li>${v.name}: ${v.relevant ? 'relevant' : 'not relevant'} (confidence ${fmt(v.confidence, 2)})</li>`)}</ul>`;
}

function rankedList(title: string, servers: ServerAnswer[], pick: (s: ServerAnswer) => Array<Ranked & { label: string }> | undefined): SafeHtml {
  const answering = servers.filter((s) => pick(s) !== undefined);
  if (answering.length === 0) return html`<h3>${title}</h3><p>No server has answered this task yet.</p>`;
  return html`<h3>${title}</h3><div class="columns">${answering.map((s) => {
    const items = pick(s)!;
    return html`<section class="list-card"><h4>${s.name} <span class="muted">(${s.team})</span></h4>${
      items.length === 0 ? html`<p>none</p>` : html`<ol class="compact">${items.map((i) => html`<li>${i.label}${i.confidence !== undefined ? html` <span class="muted">${fmt(i.confidence, 2)}</span>` : ''}</li>`)}</ol>`
    }</section>`;
  })}</div>`;
}

function consensusSection(c: NonNullable<ArticleJson['consensus']>): SafeHtml {
  const share = (v: Voted) => html` <span class="muted">share ${fmt(v.share, 2)}, ${v.servers.length} server(s)</span>`;
  return html`<section aria-labelledby="consensus-heading"><h2 id="consensus-heading">Consensus${c.threshold !== undefined ? ` (threshold ${c.threshold})` : ''}</h2>
${c.ACT ? html`<p>ACT: ${c.ACT.relevant ? 'relevant' : 'not relevant'} (share ${fmt(c.ACT.confidence, 2)}; weight ${c.ACT.support.relevant} for, ${c.ACT.support.irrelevant} against)</p>` : ''}
${c.INT ? html`<h3>INT</h3><ul class="compact">${c.INT.items.map((i) => html`<li>${i.accession}${share(i)}</li>`)}</ul>` : ''}
${c.IPT ? html`<h3>IPT</h3><ul class="compact">${c.IPT.items.map((i) => html`<li>${i.a} – ${i.b}${share(i)}</li>`)}</ul>` : ''}
${c.MENTION ? html`<h3>Mentions</h3><ul class="compact">${c.MENTION.items.map((i) => html`<li>${i.text} <span class="muted">[${i.start}, ${i.end})</span>${share(i)}</li>`)}</ul>` : ''}
</section>`;
}

export function articleFragment(a: ArticleJson): SafeHtml {
  const withMentions = a.servers.filter((s) => s.result?.MENTION);
  const highlighted = highlightMentions(a.text, withMentions.map((s) => ({ name: s.name, mentions: s.result!.MENTION! })));
  const final = a.status === 'done';
  return html`<div${final ? html` data-final` : ''}>
<p class="article-meta">Status: <strong data-article-status>${a.status}</strong> · challenge ${a.challenge}${a.organiserId ? html` · id ${a.organiserId}` : ''} · from ${a.sourceFormat}</p>
<section aria-labelledby="servers-heading"><h2 id="servers-heading">Servers</h2>
${a.servers.length === 0 ? html`<p>Not sent to any server yet: no server is started in this challenge.</p>` : html`<div class="table-scroll"><table><caption>Each server's state for this article</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Team</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last outcome</th></tr></thead>
<tbody>${a.servers.map((s) => html`<tr><td>${s.name}</td><td>${s.team}</td><td><span class="state state-${s.state}">${s.state}</span></td><td>${s.attempts}</td><td>${s.lastOutcome ?? '—'}${s.lastDetail ? html`: ${s.lastDetail}` : ''}</td></tr>`)}</tbody></table></div>`}
</section>
<section aria-labelledby="text-heading"><h2 id="text-heading">Text and mentions</h2>
${agreementLegend(withMentions.length)}
<div class="article-text" data-article-text>${highlighted}</div>
</section>
<section aria-labelledby="act-heading"><h2 id="act-heading">Relevance (ACT)</h2>${actBar(a.servers)}</section>
<section aria-labelledby="lists-heading"><h2 id="lists-heading">Normalised proteins and pairs</h2>
${rankedList('INT: proteins', a.servers, (s) => s.result?.INT?.map((i) => ({ ...i, label: i.accession })))}
${rankedList('IPT: interacting pairs', a.servers, (s) => s.result?.IPT?.map((i) => ({ ...i, label: `${i.a} – ${i.b}` })))}
</section>
${a.consensus ? consensusSection(a.consensus) : ''}
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
  fields: html`${select('submit', 'format', 'Format', [['text', 'Plain text'], ['xml', 'JATS XML']])}${textArea('submit', 'content', 'Article', { rows: 8, required: true })}`,
})}
</section>
${challenges.length > 0 ? html`<section aria-labelledby="challenges-heading"><h2 id="challenges-heading">Challenges</h2><ul>${challenges.map((c) => html`<li>${c.name} <span class="muted">(${c.slug}, ${c.phase}; ${c.tasks.join(', ')})</span>${c.phase === 'closed' ? html` — leaderboards: ${c.tasks.map((t) => html` <a href="/challenges/${c.slug}/leaderboard/${t}">${t}</a>`)}` : ''}</li>`)}</ul></section>` : ''}`;
}
