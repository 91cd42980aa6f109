// The team page: the token, team registration (the token is shown once), the team's servers
// in every challenge, and the form to register another server; and the page of one server:
// progress (polled every 2 s), response times with their histogram, the last setup check
// and the error report, plus start / pause / check / send failed articles again / delete.
// The buttons sit outside the polled region so keyboard focus stays put.
import { fmt, html, type SafeHtml } from '../html.ts';
import { apiForm, challengeSelect, fragment, NEEDS_TOKEN, select, taskBoxes, textArea, textField, tokenBox } from '../layout.ts';
import { reliabilityList } from '../figures.ts';
import { timeElement } from '../time.ts';
import type { ReliabilityFigures } from '../../reliability/figures.ts';
import { COLUMN_LAYOUTS } from '../../scoring/types.ts';
import type { Challenge } from '../../challenges/repository.ts';
import { histogramChart, type HistogramBar } from '../plots.ts';
import { TASK_NAMES } from '../../families/registry.ts';
import type { ExportFormatName } from '../../families/family.ts';
import { PROTOCOLS, PULL_PROTOCOL } from '../../dispatch/annotators/registry.ts';
import { suiteName } from './organiser.ts';

export function teamPageBody(challenges: Challenge[]): SafeHtml {
  // A test-suite run is a challenge of the organiser's own (suite-<name>): not for teams to join.
  const open = challenges.filter((c) => c.phase !== 'closed' && suiteName(c.slug) === null);
  return html`<h1>Your team</h1>
${tokenBox('team')}
<section class="card" aria-labelledby="register-team-heading"><h2 id="register-team-heading">Register a team</h2>
<p>The answer holds your team's token. It is shown only once and saved in this browser; keep a copy.</p>
${apiForm({ api: '/api/teams', then: 'token refresh', label: 'Register the team', id: 'register-team', fields: html`${textField('team', 'name', 'Team name', { required: true })}${textField('team', 'contact', 'Contact (e-mail)', { type: 'email', required: true })}` })}
</section>
<section class="card" aria-labelledby="servers-heading"><h2 id="servers-heading">Your annotation servers</h2>
${fragment('/fragments/team/servers', { label: 'Your annotation servers', needsToken: NEEDS_TOKEN.teamHere })}
</section>
<section class="card" aria-labelledby="register-server-heading"><h2 id="register-server-heading">Register an annotation server</h2>
<p>The server is registered at once and starts paused; a setup check then calls it with a sample article, and its server page shows the result when the check is over.</p>
<p><strong>My server is reachable</strong> from the internet: give its URL and the protocol it speaks; the meta-server calls it. <strong>Run an agent</strong> when it is not (NAT, a campus firewall, a GPU node of a cluster): choose protocol “Pull (run an agent)” and leave the URL empty, then run <code>metaserver agent --url SITE --token TOKEN --server ID --forward YOUR-SERVER-URL</code> next to your server (or <code>examples/python/pull_agent.py</code>): it takes the articles over HTTPS, only outbound, and the setup check passes once it has answered the sample article.</p>
${apiForm({
  api: '/api/challenges/{challenge}/servers?background=true',
  then: 'goto:/servers/{id}',
  label: 'Register the server',
  id: 'register-server',
  fields: html`${challengeSelect('server', open)}
${textField('server', 'name', 'Server name', { required: true })}
${textField('server', 'url', 'Server URL (empty for an agent)', { type: 'url', placeholder: 'http://host:port/', hint: 'Needed unless the protocol is Pull: then your agent fetches the articles and the meta-server never connects.' })}
${select('server', 'protocol', 'Protocol', [...PROTOCOLS.map((p): [string, string] => [p.name, p.label]), [PULL_PROTOCOL, 'Pull (run an agent)']])}
${taskBoxes('server')}
${textField('server', 'method', 'XML-RPC method (optional)', { placeholder: 'Annotator.getAnnotation' })}
${textField('server', 'concurrency', 'Articles in flight at once (optional)', { type: 'number', min: 1 })}`,
})}
</section>
<section class="card" aria-labelledby="run-heading"><h2 id="run-heading">Upload an offline run</h2>
<p>A run file made without a server (at most 5 per task), scored on the leaderboard with the online runs.</p>
${apiForm({
  api: '/api/challenges/{challenge}/runs/{task}?columns={columns}',
  body: 'tsv',
  then: 'none',
  label: 'Upload the run',
  id: 'upload-run',
  fields: html`${challengeSelect('run', open)}
${select(
  'run',
  'task',
  'Task',
  TASK_NAMES.map((t): [string, string] => [t, t]),
)}
${select(
  'run',
  'columns',
  'Columns after the id and the answer',
  COLUMN_LAYOUTS.map((c): [string, string] => [c, c]),
)}
${textArea('run', 'body', 'Run', { rows: 8, required: true, hint: 'The BC II.5 tab-separated run file (MENTION and COREF: the JSON form).' })}`,
})}
</section>`;
}

interface ServerRow {
  id: number;
  name: string;
  challenge: string;
  state: string;
  url: string;
  tasks: string[];
  check: { outcome: string } | null;
}

export function teamServersFragment(lists: Array<{ challenge: Challenge; servers: ServerRow[] }>): SafeHtml {
  const rows = lists.flatMap((l) => l.servers);
  if (rows.length === 0) return html`<p>No servers registered yet.</p>`;
  return html`<div class="table-scroll"><table><caption>Servers visible with your token</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Challenge</th><th scope="col">State</th><th scope="col">Last check</th><th scope="col">Tasks</th><th scope="col">URL</th></tr></thead>
<tbody>${rows.map((s) => html`<tr><td><a href="/servers/${s.id}">${s.name}</a></td><td>${s.challenge.startsWith('suite-') ? html`<a href="/testsuites/${s.challenge.slice(6)}">${s.challenge}</a>` : s.challenge}</td><td><span class="state state-${s.state}">${s.state}</span></td><td>${s.check?.outcome ?? '—'}</td><td>${s.tasks.join(', ')}</td><td>${s.url ? html`<code>${s.url}</code>` : 'pull (agent)'}</td></tr>`)}</tbody></table></div>`;
}

interface Issue {
  path: string;
  message: string;
}
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
  timing: { p50Ms: number | null; p95Ms: number | null; meanMs: number | null; answered: number; sample?: number };
  histogram?: HistogramBar[];
  errors: Array<{
    article: string;
    articleId: string;
    attempt: number;
    kind: string;
    detail: string | null;
    errors: Issue[] | null;
    at: string;
  }>;
  /** How many newest failed attempts were skipped before `errors`. */
  errorsOffset?: number;
  failuresByKind?: Record<
    string,
    { count: number; firstAt: string; lastAt: string; example: { article: string; articleId: string; detail: string | null; hint: string } }
  >;
  /** Leases the agent gave back (a pull server): not failures, shown apart from them. */
  givenBack?: { count: number; lastAt: string | null };
  /** A setup check started in the background is still running. */
  checkRunning?: boolean;
  reliability?: ReliabilityFigures;
  [more: string]: unknown;
}

/** Failed attempts listed per page of the server page, under the failures by kind. */
export const ERRORS_PAGE_SIZE = 20;

export function serverPageBody(id: number, errorsOffset = 0): SafeHtml {
  const api = `/api/servers/${id}`;
  return html`<h1>Annotation server ${id}</h1>
<section class="card" aria-labelledby="actions-heading"><h2 id="actions-heading">Actions</h2>
<div class="buttons">
<button type="button" data-action="${api}/start" data-say="start" data-status-for="server-action-status">Start</button>
<button type="button" data-action="${api}/pause" data-say="pause" data-status-for="server-action-status">Pause</button>
<button type="button" data-action="${api}/check?background=true" data-say="check" data-status-for="server-action-status">Check now</button>
<button type="button" data-action="${api}/retry-failed" data-say="retry" data-status-for="server-action-status">Send failed articles again</button>
<button type="button" class="danger" data-action="${api}" data-method="DELETE" data-say="delete" data-then="goto:/team" data-status-for="server-action-status">Delete (only when paused)</button>
</div>
<p class="status" role="status" aria-live="polite" id="server-action-status"></p>
</section>
${fragment(`/fragments/servers/${id}${errorsOffset > 0 ? `?errorsOffset=${errorsOffset}` : ''}`, { pollMs: 2000, label: 'Server status', needsToken: NEEDS_TOKEN.owner })}
<section class="card" aria-labelledby="export-heading"><h2 id="export-heading">Export the answers</h2>
${fragment(`/fragments/servers/${id}/export`, { label: 'Export the answers', needsToken: NEEDS_TOKEN.owner })}
</section>`;
}

function issues(list: Issue[] | null | undefined): SafeHtml | '' {
  if (!list || list.length === 0) return '';
  return html`<ul class="issues">${list.map((i) => html`<li><code>${i.path || '(answer)'}</code>: ${i.message}</li>`)}</ul>`;
}

function progressSection(p: ServerJson['progress']): SafeHtml {
  const total = p.queued + p.active + p.done + p.failed;
  const entries: Array<[keyof ServerJson['progress'], string]> = [
    ['queued', 'Queued'],
    ['active', 'Active'],
    ['done', 'Done'],
    ['failed', 'Failed'],
  ];
  return html`<section aria-labelledby="progress-heading"><h2 id="progress-heading">Progress</h2>
<dl class="figures">${entries.map(([key, label]) => html`<div class="figure figure-${key}"><dt>${label}</dt><dd data-progress="${key}">${p[key]}</dd></div>`)}</dl>
<label class="progress-label" for="progress-bar">${p.done + p.failed} of ${total} articles finished</label>
<progress id="progress-bar" max="${Math.max(total, 1)}" value="${p.done + p.failed}"></progress>
</section>`;
}

/** Failures by kind, the most frequent first: count, first and last time, the latest example and what to do. */
function failureKinds(s: ServerJson): SafeHtml | '' {
  const kinds = Object.entries(s.failuresByKind ?? {});
  if (kinds.length === 0) return '';
  const lost =
    s.progress.failed > 0
      ? html`<p><a href="/challenges/${s.challenge}/articles?server=${String(s.id)}&amp;outcome=failed" data-lost-articles>The ${s.progress.failed} ${s.progress.failed === 1 ? 'article' : 'articles'} this server failed for good</a> (the organiser's list).</p>`
      : '';
  return html`<div class="table-scroll"><table class="failure-kinds"><caption>Failed attempts by kind, the most frequent first</caption>
<thead><tr><th scope="col">Kind</th><th scope="col">Attempts</th><th scope="col">First</th><th scope="col">Last</th><th scope="col">Latest example</th><th scope="col">What to do</th></tr></thead>
<tbody>${kinds.map(([kind, k]) => html`<tr data-failure-kind="${kind}"><th scope="row"><span class="kind">${kind}</span></th><td data-count>${k.count}</td><td>${timeElement(k.firstAt)}</td><td>${timeElement(k.lastAt)}</td><td><a href="/articles/${k.example.articleId}">${k.example.article}</a>${k.example.detail ? html`: ${k.example.detail}` : ''}</td><td>${k.example.hint}</td></tr>`)}</tbody></table></div>
${lost}`;
}

/** Runs of failed attempts alike (same kind and detail, one after another): one row each, with how many. */
function runsAlike(errors: ServerJson['errors']): Array<{ first: ServerJson['errors'][number]; more: number }> {
  const runs: Array<{ first: ServerJson['errors'][number]; more: number }> = [];
  for (const e of errors) {
    const last = runs.at(-1);
    if (last && last.first.kind === e.kind && last.first.detail === e.detail && !e.errors?.length && !last.first.errors?.length)
      last.more++;
    else runs.push({ first: e, more: 0 });
  }
  return runs;
}

function errorReport(s: ServerJson): SafeHtml {
  const errors = s.errors;
  const offset = s.errorsOffset ?? 0;
  if (errors.length === 0) return html`<p data-no-errors>${offset > 0 ? 'No older failed attempts.' : 'No failed attempts.'}</p>`;
  const page = (o: number) => `/servers/${s.id}${o > 0 ? `?errorsOffset=${o}` : ''}`;
  const total = Object.values(s.failuresByKind ?? {}).reduce((n, k) => n + k.count, 0);
  const last = offset + errors.length;
  return html`<h3>Latest failed attempts</h3><div class="table-scroll"><table class="errors"><caption>Failed attempts ${offset + 1}–${last}${total ? ` of ${total}` : ''}, newest first; attempts alike one after another share a row</caption>
<thead><tr><th scope="col">Article</th><th scope="col">Attempt</th><th scope="col">Kind</th><th scope="col">Detail</th><th scope="col">Time</th></tr></thead>
<tbody>${runsAlike(errors).map(({ first: e, more }) => html`<tr data-error-kind="${e.kind}"><td><a href="/articles/${e.articleId}">${e.article}</a>${more > 0 ? html` <span class="muted" data-alike="${String(more)}">and ${more} more like it</span>` : ''}</td><td>${e.attempt}</td><td><span class="kind">${e.kind}</span></td><td>${e.detail ?? ''}${issues(e.errors)}</td><td>${timeElement(e.at)}</td></tr>`)}</tbody></table></div>
<p class="pager">${offset > 0 ? html`<a href="${page(Math.max(0, offset - ERRORS_PAGE_SIZE))}">Newer ${ERRORS_PAGE_SIZE}</a> ` : ''}${last < total ? html`<a href="${page(last)}">Older ${ERRORS_PAGE_SIZE}</a>` : ''}</p>`;
}

function reliabilitySection(s: ServerJson): SafeHtml | '' {
  if (!s.reliability) return '';
  return html`<section aria-labelledby="reliability-heading"><h2 id="reliability-heading">Reliability</h2>${reliabilityList(s.reliability)}</section>`;
}

/** The last check in words; "running" while a background check has not stored its result. */
function checkLine(s: ServerJson, checkDeadlineSeconds?: number): SafeHtml {
  const c = s.check;
  const deadline = checkDeadlineSeconds ? `within the check's deadline of ${checkDeadlineSeconds} s` : "within the check's deadline";
  if (s.checkRunning)
    return html`<p data-check="running">Setup check: <strong>running</strong> — the server is being called with a sample article; the result appears here ${deadline}, when the server answers or the deadline passes.</p>`;
  if (!c) return html`<p data-check="none">Setup check: not run yet. Use "Check now".</p>`;
  if (c.outcome === 'waiting')
    return html`<p data-check="waiting">Setup check: <strong>waiting for the agent</strong> — it passes once your agent has taken the sample article and answered it validly.</p>`;
  return html`<p data-check="${c.ok ? 'ok' : 'failed'}">Setup check: ${c.ok ? html`<strong class="ok">passed</strong> — the server answered the sample article correctly` : html`<strong class="error">failed (${c.outcome})</strong> — ${checkOutcomeWords(c.outcome)}`} after ${(c.ms / 1000).toFixed(2)} s, on ${timeElement(c.at)}.${c.detail ? html` Detail: ${c.detail}` : ''}</p>`;
}

interface AgentJson {
  connected: boolean;
  lastPollAt: string | null;
  lastLeaseAt: string | null;
  leasesHeld: number;
  localServer?: 'up' | 'down' | 'unknown';
  localServerDetail?: string;
}

const when = (iso: string | null) => (iso ? timeElement(iso) : 'never');

/** A pull server: whether its agent is connected, when it last took an article, how many it holds. */
function agentLine(a: AgentJson | undefined): SafeHtml {
  if (!a) return html`<p data-agent="unknown">Agent: not known (no lease service in this process).</p>`;
  if (a.connected && a.localServer === 'down')
    return html`<p data-agent="local-down">Agent: connected, but <strong class="error">the agent's server is down</strong> — it takes no article until your annotation server answers it again (${a.localServerDetail ?? ''}) · ${a.leasesHeld} lease${a.leasesHeld === 1 ? '' : 's'} held</p>`;
  return html`<p data-agent="${a.connected ? 'connected' : 'absent'}">Agent: ${a.connected ? html`<strong class="ok">connected</strong>` : html`<strong class="error">not connected</strong> — run <code>metaserver agent</code> next to your server`} · last lease taken ${when(a.lastLeaseAt)} · last asked for work ${when(a.lastPollAt)} · ${a.leasesHeld} lease${a.leasesHeld === 1 ? '' : 's'} held</p>`;
}

/** Leases the agent gave back: its own line beside the agent's, as they are no failures. */
function givenBackLine(g: ServerJson['givenBack']): SafeHtml {
  const n = g?.count ?? 0;
  return html`<p data-given-back="${String(n)}">Given back by the agent: ${n}${g?.lastAt ? html` (last ${timeElement(g.lastAt)})` : ''} — articles it was stopping with, its own server did not answer, or whose lease it stopped renewing; each was offered again at once. Not failures: not counted against the server.</p>`;
}

/** What a failed check's outcome means, and what to look at. */
function checkOutcomeWords(outcome: string): string {
  switch (outcome) {
    case 'timeout':
      return 'the server did not answer before the check deadline; is it busy or stuck?';
    case 'connection':
      return 'the server could not be reached; check the URL, the port and that it is running';
    case 'http':
      return 'the server answered with an HTTP error status';
    case 'protocol':
      return 'the answer is not a valid XML-RPC response';
    case 'fault':
      return 'the server answered with an XML-RPC fault';
    case 'invalid':
      return "the answer does not follow the task's format (see the problems listed)";
    case 'waiting':
      return 'waiting for the agent to take the sample article';
    default:
      return 'see the detail';
  }
}

/** `checkDeadlineSeconds`: the setup check's deadline, stated while a check runs. */
export function serverFragment(s: ServerJson, checkDeadlineSeconds?: number): SafeHtml {
  const c = s.check;
  return html`<span hidden data-heading="${s.name}" data-heading-note="annotation server ${s.id} of team ${s.team}"></span>
<section aria-labelledby="about-heading"><h2 id="about-heading">${s.name}</h2>
<p>Team ${s.team} · challenge ${s.challenge} · <span class="state state-${s.state}" data-server-state>${s.state}</span> · ${s.tasks.join(', ')} · protocol ${s.protocol ?? 'xmlrpc'} · concurrency ${s.concurrency}</p>
${s.protocol === PULL_PROTOCOL ? html`${agentLine(s.agent as AgentJson | undefined)}${givenBackLine(s.givenBack)}` : html`<p class="url"><code>${s.url}</code></p>`}
${checkLine(s, checkDeadlineSeconds)}
${c && !s.checkRunning ? issues(c.errors) : ''}
</section>
${progressSection(s.progress)}
<section aria-labelledby="timing-heading"><h2 id="timing-heading">Response times</h2>
<p>${s.timing.answered} answered${s.timing.sample !== undefined && s.timing.sample < s.timing.answered ? ` (times over the latest ${s.timing.sample})` : ''} · median ${fmt(s.timing.p50Ms, 0)} ms · 95th percentile ${fmt(s.timing.p95Ms, 0)} ms · mean ${fmt(s.timing.meanMs, 0)} ms</p>
<figure>${histogramChart(s.histogram ?? [])}</figure>
</section>
<section aria-labelledby="errors-heading"><h2 id="errors-heading">Error report</h2>${failureKinds(s)}${errorReport(s)}</section>
${reliabilitySection(s)}`;
}

const FORMAT_WORDS: Record<ExportFormatName, string> = {
  tsv: 'BC II.5 result file (TSV)',
  'bioc-xml': 'BioC XML',
  'bioc-json': 'BioC JSON',
  brat: 'brat standoff (.ann)',
  a2: 'BioNLP shared-task .a1/.a2',
  pubannotation: 'PubAnnotation JSON',
  bio: 'BIO (CoNLL) tags',
  pubtator: 'PubTator text',
};

/** The export form of one server: each of its tasks with the formats that can carry it. */
export function exportFragment(s: ServerJson, formatsFor: (task: string) => ExportFormatName[]): SafeHtml {
  const groups = s.tasks.map((t) => ({ task: t, formats: formatsFor(t) })).filter((g) => g.formats.length > 0);
  if (groups.length === 0) return html`<p>None of this server's tasks has an export format.</p>`;
  return html`<form class="export-form" data-export="/api/challenges/${s.challenge}/export/{task}/{format}?server=${s.id}" id="export-form">
<div class="field"><label for="export-what">Task and format</label><select id="export-what" name="what">${groups.map(
    (g) =>
      html`<optgroup label="${g.task}">${g.formats.map((f) => html`<option value="${g.task}/${f}">${g.task}: ${FORMAT_WORDS[f]}</option>`)}</optgroup>`,
  )}</select></div>
<span class="check"><input type="checkbox" id="export-archive" name="archive"><label for="export-archive">Always as one .tar.gz archive (formats with a file per article come so anyway)</label></span>
<div class="buttons"><button type="submit">Download</button></div>
<p class="status" role="status" data-status></p>
</form>`;
}
