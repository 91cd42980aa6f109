// The team page: the token, team registration (the token is shown once), the team's servers
// in every challenge, and the form to register another server; and the page of one server:
// progress (polled every 2 s), response times with their histogram, the last setup check
// and the error report, plus start / pause / check / send failed articles again / delete.
// The buttons sit outside the polled region so keyboard focus stays put.
import { fmt, html, type SafeHtml } from '../html.ts';
import { apiForm, fragment, select, taskBoxes, textField, tokenBox } from '../layout.ts';
import type { Challenge } from '../../challenges/repository.ts';
import { histogramChart, type HistogramBar } from '../plots.ts';
import { PROTOCOLS } from '../../dispatch/annotators/registry.ts';

export function teamPageBody(challenges: Challenge[]): SafeHtml {
  const open = challenges.filter((c) => c.phase !== 'closed');
  return html`<h1>Your team</h1>
${tokenBox('team')}
<section class="card" aria-labelledby="register-team-heading"><h2 id="register-team-heading">Register a team</h2>
<p>The answer holds your team's token. It is shown only once and saved in this browser; keep a copy.</p>
${apiForm({ api: '/api/teams', then: 'token refresh', label: 'Register the team', id: 'register-team', fields: html`${textField('team', 'name', 'Team name', { required: true })}${textField('team', 'contact', 'Contact (e-mail)', { type: 'email', required: true })}` })}
</section>
<section class="card" aria-labelledby="servers-heading"><h2 id="servers-heading">Your annotation servers</h2>
${fragment('/fragments/team/servers', { label: 'Your annotation servers' })}
</section>
<section class="card" aria-labelledby="register-server-heading"><h2 id="register-server-heading">Register an annotation server</h2>
<p>The server is called once with a sample article at once; it starts paused.</p>
${apiForm({
  api: '/api/challenges/{challenge}/servers',
  then: 'goto:/servers/{id}',
  label: 'Register the server',
  id: 'register-server',
  fields: html`${select('server', 'challenge', 'Challenge', open.map((c) => [c.slug, `${c.name} (${c.slug})`]))}
${textField('server', 'name', 'Server name', { required: true })}
${textField('server', 'url', 'Server URL', { type: 'url', required: true, placeholder: 'http://host:port/' })}
${select('server', 'protocol', 'Protocol', PROTOCOLS.map((p) => [p.name, p.label]))}
${taskBoxes('server')}
${textField('server', 'method', 'XML-RPC method (optional)', { placeholder: 'Annotator.getAnnotation' })}
${textField('server', 'concurrency', 'Articles in flight at once (optional)', { type: 'number', min: 1 })}`,
})}
</section>`;
}

interface ServerRow { id: number; name: string; challenge: string; state: string; url: string; tasks: string[]; check: { outcome: string } | null }

export function teamServersFragment(lists: Array<{ challenge: Challenge; servers: ServerRow[] }>): SafeHtml {
  const rows = lists.flatMap((l) => l.servers);
  if (rows.length === 0) return html`<p>No servers registered yet.</p>`;
  return html`<div class="table-scroll"><table><caption>Servers visible with your token</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Challenge</th><th scope="col">State</th><th scope="col">Last check</th><th scope="col">Tasks</th><th scope="col">URL</th></tr></thead>
<tbody>${rows.map((s) => html`<tr><td><a href="/servers/${s.id}">${s.name}</a></td><td>${s.challenge}</td><td><span class="state state-${s.state}">${s.state}</span></td><td>${s.check?.outcome ?? '—'}</td><td>${s.tasks.join(', ')}</td><td><code>${s.url}</code></td></tr>`)}</tbody></table></div>`;
}


interface Issue { path: string; message: string }
export interface ServerJson {
  id: number;
  name: string;
  team: string;
  challenge: string;
  url: string;
  tasks: string[];
  state: string;
  concurrency: number;
  protocol?: string;
  check: { ok: boolean; outcome: string; detail?: string; at: string; ms: number; errors: Issue[]; warnings: Issue[] } | null;
  progress: { queued: number; active: number; done: number; failed: number };
  timing: { p50Ms: number | null; p95Ms: number | null; meanMs: number | null; answered: number };
  histogram?: HistogramBar[];
  errors: Array<{ article: string; articleId: string; attempt: number; kind: string; detail: string | null; errors: Issue[] | null; at: string }>;
  [more: string]: unknown;
}

/** Fields this page shows itself; anything else the API adds is listed under "More figures". */
const KNOWN = new Set(['id', 'name', 'team', 'teamId', 'challenge', 'challengeId', 'url', 'tasks', 'method', 'protocol', 'concurrency', 'sendMetadata', 'state', 'check', 'createdAt', 'progress', 'timing', 'histogram', 'errors']);

export function serverPageBody(id: number): SafeHtml {
  const api = `/api/servers/${id}`;
  return html`<h1>Annotation server ${id}</h1>
<section class="card" aria-labelledby="actions-heading"><h2 id="actions-heading">Actions</h2>
<div class="buttons">
<button type="button" data-action="${api}/start" data-status-for="server-action-status">Start</button>
<button type="button" data-action="${api}/pause" data-status-for="server-action-status">Pause</button>
<button type="button" data-action="${api}/check" data-status-for="server-action-status">Check now</button>
<button type="button" data-action="${api}/retry-failed" data-status-for="server-action-status">Send failed articles again</button>
<button type="button" class="danger" data-action="${api}" data-method="DELETE" data-then="goto:/team" data-status-for="server-action-status">Delete (only when paused)</button>
</div>
<p class="status" role="status" aria-live="polite" id="server-action-status"></p>
</section>
${fragment(`/fragments/servers/${id}`, { pollMs: 2000, label: 'Server status' })}`;
}

function issues(list: Issue[] | null | undefined): SafeHtml | '' {
  if (!list || list.length === 0) return '';
  return html`<ul class="issues">${list.map((i) => html`<li><code>${i.path || '(answer)'}</code>: ${i.message}</li>`)}</ul>`;
}

function progressSection(p: ServerJson['progress']): SafeHtml {
  const total = p.queued + p.active + p.done + p.failed;
  const entries: Array<[keyof ServerJson['progress'], string]> = [['queued', 'Queued'], ['active', 'Active'], ['done', 'Done'], ['failed', 'Failed']];
  return html`<section aria-labelledby="progress-heading"><h2 id="progress-heading">Progress</h2>
<dl class="figures">${entries.map(([key, label]) => html`<div class="figure figure-${key}"><dt>${label}</dt><dd data-progress="${key}">${p[key]}</dd></div>`)}</dl>
<label class="progress-label" for="progress-bar">${p.done + p.failed} of ${total} articles finished</label>
<progress id="progress-bar" max="${Math.max(total, 1)}" value="${p.done + p.failed}"></progress>
</section>`;
}

function errorReport(errors: ServerJson['errors']): SafeHtml {
  if (errors.length === 0) return html`<p data-no-errors>No failed attempts.</p>`;
  return html`<div class="table-scroll"><table class="errors"><caption>The most recent failed attempts, newest first</caption>
<thead><tr><th scope="col">Article</th><th scope="col">Attempt</th><th scope="col">Kind</th><th scope="col">Detail</th><th scope="col">Time</th></tr></thead>
<tbody>${errors.map((e) => html`<tr data-error-kind="${e.kind}"><td><a href="/articles/${e.articleId}">${e.article}</a></td><td>${e.attempt}</td><td><span class="kind">${e.kind}</span></td><td>${e.detail ?? ''}${issues(e.errors)}</td><td><time datetime="${e.at}">${new Date(e.at).toISOString().replace('T', ' ').slice(0, 19)}</time></td></tr>`)}</tbody></table></div>`;
}

function moreFigures(s: ServerJson): SafeHtml | '' {
  const extra = Object.entries(s).filter(([key]) => !KNOWN.has(key));
  if (extra.length === 0) return '';
  return html`<section aria-labelledby="more-heading"><h2 id="more-heading">More figures</h2><dl class="more">${extra.map(
    ([key, value]) => html`<dt>${key}</dt><dd>${typeof value === 'object' && value !== null ? html`<pre>${JSON.stringify(value, null, 2)}</pre>` : String(value)}</dd>`,
  )}</dl></section>`;
}

export function serverFragment(s: ServerJson): SafeHtml {
  const c = s.check;
  return html`<section aria-labelledby="about-heading"><h2 id="about-heading">${s.name}</h2>
<p>Team ${s.team} · challenge ${s.challenge} · <span class="state state-${s.state}" data-server-state>${s.state}</span> · ${s.tasks.join(', ')} · protocol ${s.protocol ?? 'xmlrpc'} · concurrency ${s.concurrency}</p>
<p class="url"><code>${s.url}</code></p>
<p>Last check: ${c ? html`<strong class="${c.ok ? 'ok' : 'error'}">${c.outcome}</strong> after ${c.ms} ms${c.detail ? html` — ${c.detail}` : ''}` : 'never'}</p>
${c ? issues(c.errors) : ''}
</section>
${progressSection(s.progress)}
<section aria-labelledby="timing-heading"><h2 id="timing-heading">Response times</h2>
<p>${s.timing.answered} answered · median ${fmt(s.timing.p50Ms, 0)} ms · 95th percentile ${fmt(s.timing.p95Ms, 0)} ms · mean ${fmt(s.timing.meanMs, 0)} ms</p>
<figure>${histogramChart(s.histogram ?? [])}</figure>
</section>
<section aria-labelledby="errors-heading"><h2 id="errors-heading">Error report</h2>${errorReport(s.errors)}</section>
${moreFigures(s)}`;
}
