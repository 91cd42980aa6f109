// The organiser page: challenges with their phase, loading articles and gold standards,
// every server of every challenge at a glance, and links to the leaderboards.
import { html, type SafeHtml } from '../html.ts';
import {
  apiForm,
  challengeSelect,
  fragment,
  NEEDS_TOKEN,
  preselected,
  tokenBox,
  select,
  taskBoxes,
  textArea,
  textField,
} from '../layout.ts';
import { decimal, duration, failsEverything, percent } from '../figures.ts';
import { timeElement } from '../time.ts';
import type { ReliabilityFigures } from '../../reliability/figures.ts';
import { hasClosed, type Challenge, type ChallengeCounts } from '../../challenges/repository.ts';

/** How often the challenges and their servers are read again. */
export const GLANCE_POLL_MS = 5000;
import { TASK_NAMES, tasksWith } from '../../families/registry.ts';

/** Which tasks' gold standards are tab-separated and which JSON, from the families. */
function goldHint(): string {
  const text = tasksWith((f) => f.scoring.upload === 'tsv');
  const json = tasksWith((f) => f.scoring.upload === 'json');
  return `${text.join(', ')}: the BC II.5 tab-separated file. ${json.join(', ')}: the JSON form.`;
}

/** showClosed: the glance shows closed challenges' servers too (?closed=show), not one line each. */
export function organiserPageBody(challenges: Challenge[], showClosed = false): SafeHtml {
  const choices = challenges.map((c): [string, string] => [c.slug, `${c.name} (${c.slug})`]);
  return html`<h1>Organiser</h1>
${tokenBox('organiser')}
<section class="card" aria-labelledby="challenges-heading"><h2 id="challenges-heading">Challenges</h2>
<p class="hint">Updated every ${GLANCE_POLL_MS / 1000} seconds. Times are in seconds, rates in per cent; MTBF is the mean time between failures, MTTR the mean time until a failing server answered again.</p>
${fragment(`/fragments/organiser${showClosed ? '?closed=show' : ''}`, { label: 'Challenges and servers', pollMs: GLANCE_POLL_MS, needsToken: NEEDS_TOKEN.organiserHere })}
</section>
<section class="card" aria-labelledby="articles-heading"><h2 id="articles-heading">Load articles</h2>
${apiForm({
  api: '/api/challenges/{challenge}/articles',
  body: 'articles',
  then: 'refresh',
  label: 'Load the articles',
  id: 'load-articles',
  fields: html`${select('articles', 'challenge', 'Challenge', choices)}
${select(
  'articles',
  'format',
  'Format',
  [
    ['json', 'JSON: {"articles": [{"id", "text" or "xml"}]} or a list'],
    ['text', 'One article, plain text'],
    ['xml', 'One article, JATS XML'],
  ],
  { formatSwitch: true },
)}
<div data-needs-id hidden>${textField('articles', 'id', 'Article id (for one article)')}</div>
${textArea('articles', 'content', 'Articles', { rows: 8, required: true })}`,
})}
</section>
<section class="card" aria-labelledby="gold-heading"><h2 id="gold-heading">Load a gold standard</h2>
${apiForm({
  api: '/api/challenges/{challenge}/gold/{task}',
  method: 'PUT',
  body: 'tsv',
  then: 'refresh',
  label: 'Load the gold standard',
  id: 'load-gold',
  fields: html`${challengeSelect('gold', challenges)}
${select(
  'gold',
  'task',
  'Task',
  TASK_NAMES.map((t): [string, string] => [t, t]),
)}
${textArea('gold', 'body', 'Gold standard', { rows: 8, required: true, hint: goldHint() })}`,
})}
</section>
<section class="card" aria-labelledby="suite-heading"><h2 id="suite-heading">Test-suite reports</h2>
<p>A test-suite run (<code>POST /api/testsuites</code>) is a challenge named <code>suite-&lt;name&gt;</code>; its report is linked from that challenge above, or open it by name.</p>
<form class="inline" method="get" action="/testsuites" id="open-suite"><label for="suite-name">Run name</label><input id="suite-name" name="name" type="text" required spellcheck="false"><button type="submit">Open the report</button></form>
</section>
<section class="card" aria-labelledby="create-heading"><h2 id="create-heading">Create a challenge</h2>
${apiForm({
  api: '/api/challenges',
  then: 'reload',
  label: 'Create the challenge',
  id: 'create-challenge',
  fields: html`${textField('challenge', 'slug', 'Slug', { required: true, placeholder: 'bc2.5' })}
${textField('challenge', 'name', 'Name', { required: true })}
${taskBoxes('challenge', preselected('challenge'))}
${textField('challenge', 'timeoutSeconds', 'Deadline per attempt, seconds (optional)', { type: 'number', min: 1 })}
${textField('challenge', 'maxAttempts', 'Attempts per article (optional)', { type: 'number', min: 1 })}
${textField('challenge', 'retryDelaySeconds', 'Retry delay, seconds (optional)', { type: 'number', min: 0 })}
${textField('challenge', 'serversPerTeam', 'Servers per team (optional)', { type: 'number', min: 1 })}`,
})}
</section>`;
}

interface GlanceServer {
  id: number;
  name: string;
  team: string;
  state: string;
  progress?: { queued: number; active: number; done: number; failed: number };
  reliability?: ReliabilityFigures;
}
export interface ChallengeGlance {
  challenge: Challenge & { counts?: ChallengeCounts };
  servers: GlanceServer[] | { error: string };
  /** A closed challenge shown as one line (its servers on request). */
  folded?: boolean;
}

/** The run name of a test-suite challenge (`suite-<name>`), or null for an ordinary one. */
export const suiteName = (slug: string): string | null => (slug.startsWith('suite-') ? slug.slice('suite-'.length) : null);

/** The challenge's counts; articles split into scored and background once some are background (only the organiser sees this page). */
function countsLine(slug: string, n: ChallengeCounts): SafeHtml {
  const marks = n.background
    ? html` (<span data-scored="${slug}">${n.scored ?? 0} scored</span>, <span data-background="${slug}">${n.background} background</span>)`
    : '';
  return html` · ${n.articles} articles${marks}, ${n.servers} servers, ${n.teams} teams`;
}

/** The phases, in their order; `post` follows the close (teams run again, the official boards are kept). */
const PHASES = [
  ['setup', 'setup'],
  ['test', 'test'],
  ['closed', 'closed'],
  ['post', 'post (post-challenge)'],
] as const;

function phaseForm(c: Challenge): SafeHtml {
  const id = `phase-${c.slug}`;
  return html`<form class="api-form inline" id="${id}-form" data-api="/api/challenges/{slug}" data-method="PATCH" data-then="refresh" data-say="phase">
<input type="hidden" name="slug" value="${c.slug}">
<label for="${id}">Phase</label>
<select id="${id}" name="phase">${PHASES.map(([p, label]) => html`<option value="${p}"${p === c.phase ? html` selected` : ''}>${label}</option>`)}</select>
${hasClosed(c) ? html`<label><input type="checkbox" id="${id}-reopen" name="reopen" data-bool> reopen to setup or test (a closed challenge is frozen until reopened or until its post-challenge phase opens${c.leaderboardPublished ? "; reopening withdraws the leaderboards' publication" : ''}; the official boards are taken again at the next close)</label>` : ''}
<button type="submit" id="${id}-apply">Change phase</button>
<span class="status" role="status" data-status></span>
</form>`;
}

function progressCell(p: GlanceServer['progress']): SafeHtml | string {
  if (!p) return '—';
  const total = p.queued + p.active + p.done + p.failed;
  return html`${p.done + p.failed} of ${total}${p.failed ? html` <span class="error">(${p.failed} failed)</span>` : ''}`;
}

function serversTable(slug: string, servers: ChallengeGlance['servers']): SafeHtml {
  if (!Array.isArray(servers)) return html`<p class="error">${servers.error}</p>`;
  if (servers.length === 0) return html`<p>No servers registered.</p>`;
  const failing = servers.filter((s) => failsEverything(s.reliability));
  return html`${failing.length > 0 ? html`<p class="alert" data-fails-all="${slug}"><strong>${failing.length === 1 ? '1 server fails every article it was sent' : `${failing.length} servers fail every article they were sent`}:</strong> ${failing.map((s, i) => html`${i ? ', ' : ''}<a href="/servers/${s.id}?as=organiser">${s.name}</a> (team ${s.team})`)}.</p>` : ''}
<div class="table-scroll"><table class="glance"><caption>Servers of ${slug} at a glance</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Team</th><th scope="col">State</th><th scope="col">Articles finished</th><th scope="col">Success rate</th><th scope="col">Mean response</th><th scope="col"><abbr title="mean time between failures">MTBF</abbr></th><th scope="col"><abbr title="mean time to repair">MTTR</abbr></th><th scope="col">Failing now</th><th scope="col">Answers per document</th></tr></thead>
<tbody>${servers.map((s) => {
    const r = s.reliability;
    const all = failsEverything(r);
    return html`<tr${all ? html` class="fails-all"` : ''} data-server-row="${s.id}"><th scope="row"><a href="/servers/${s.id}?as=organiser">${s.name}</a></th><td>${s.team}</td><td><span class="state state-${s.state}">${s.state}</span>${all ? html` <strong class="error">fails every article</strong>` : ''}</td><td>${progressCell(s.progress)}</td><td data-figure="success">${percent(r?.successRate)}</td><td>${duration(r?.artMs)}</td><td>${duration(r?.mtbfMs)}</td><td>${duration(r?.mttrMs)}</td><td data-figure="failing">${r ? (r.failingNow ? html`<strong class="error">yes</strong>` : 'no') : '—'}</td><td>${decimal(r?.mad)}</td></tr>`;
  })}</tbody></table></div>`;
}

/** A closed challenge, folded: what it is, its links and its phase form, not its servers. */
function foldedChallenge(c: ChallengeGlance['challenge']): SafeHtml {
  const suite = suiteName(c.slug);
  return html`<li data-folded="${c.slug}"><strong>${c.name}</strong> <span class="muted">(${c.slug})</span> · phase <strong data-phase="${c.slug}">${c.phase}</strong>${c.counts ? countsLine(c.slug, c.counts) : ''} · <a href="/challenges/${c.slug}/articles">Articles</a>${suite ? html` · <a href="/testsuites/${suite}">Test-suite report</a>` : ''} · Leaderboards: ${c.tasks.map((t) => html` <a href="/challenges/${c.slug}/leaderboard/${t}">${t}</a>`)}
${phaseForm(c)}</li>`;
}

export function organiserFragment(glances: ChallengeGlance[], opts: { showClosed?: boolean } = {}): SafeHtml {
  if (glances.length === 0) return html`<p>No challenges yet.</p>`;
  const folded = glances.filter((g) => g.folded);
  const shown = glances.filter((g) => !g.folded);
  const closedLine =
    folded.length > 0
      ? html`<section class="challenge closed-challenges" aria-labelledby="closed-heading"><h3 id="closed-heading">Closed challenges (${folded.length})</h3>
<p><a href="/organiser?closed=show">Show their servers too</a></p>
<ul class="folded">${folded.map((g) => foldedChallenge(g.challenge))}</ul></section>`
      : opts.showClosed && glances.some((g) => g.challenge.phase === 'closed')
        ? html`<p><a href="/organiser">Fold the closed challenges</a></p>`
        : '';
  return html`${shown.map(({ challenge: c, servers }) => {
    const suite = suiteName(c.slug);
    return html`<section class="challenge" aria-labelledby="ch-${c.slug}"><h3 id="ch-${c.slug}">${c.name} <span class="muted">(${c.slug})</span></h3>
<p>Phase <strong data-phase="${c.slug}">${c.phase}</strong> · tasks ${c.tasks.join(', ')}${c.counts ? countsLine(c.slug, c.counts) : ''} · deadline ${c.timeoutSeconds} s, ${c.maxAttempts} ${c.maxAttempts === 1 ? 'attempt' : 'attempts'}${c.phaseChangedAt ? html` · phase set by ${c.phaseChangedBy ?? '?'} on ${timeElement(c.phaseChangedAt)}` : ''}</p>
<p class="links"><a href="/challenges/${c.slug}/articles">Articles</a> · <a href="/challenges/${c.slug}/settings">Settings</a>${suite ? html` · <a href="/testsuites/${suite}">Test-suite report</a>` : ''} · Leaderboards: ${c.tasks.map((t) => html` <a href="/challenges/${c.slug}/leaderboard/${t}">${t}</a>`)}</p>
${phaseForm(c)}
${serversTable(c.slug, servers)}
</section>`;
  })}${closedLine}`;
}
