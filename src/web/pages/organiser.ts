// The organiser page: challenges with their phase, loading articles and gold standards,
// every server of every challenge at a glance, and links to the leaderboards.
import { html, type SafeHtml } from '../html.ts';
import { apiForm, fragment, preselected, tokenBox, select, taskBoxes, textArea, textField } from '../layout.ts';
import type { Challenge } from '../../challenges/repository.ts';
import { TASK_NAMES, tasksWith } from '../../families/registry.ts';

/** Which tasks' gold standards are tab-separated and which JSON, from the families. */
function goldHint(): string {
  const text = tasksWith((f) => f.scoring.upload === 'tsv');
  const json = tasksWith((f) => f.scoring.upload === 'json');
  return `${text.join(', ')}: the BC II.5 tab-separated file. ${json.join(', ')}: the JSON form.`;
}

export function organiserPageBody(challenges: Challenge[]): SafeHtml {
  const choices = challenges.map((c): [string, string] => [c.slug, `${c.name} (${c.slug})`]);
  return html`<h1>Organiser</h1>
${tokenBox('organiser (admin)')}
<section class="card" aria-labelledby="challenges-heading"><h2 id="challenges-heading">Challenges</h2>
${fragment('/fragments/organiser', { label: 'Challenges and servers' })}
</section>
<section class="card" aria-labelledby="articles-heading"><h2 id="articles-heading">Load articles</h2>
${apiForm({
  api: '/api/challenges/{challenge}/articles',
  body: 'articles',
  then: 'refresh',
  label: 'Load the articles',
  id: 'load-articles',
  fields: html`${select('articles', 'challenge', 'Challenge', choices)}
${select('articles', 'format', 'Format', [['json', 'JSON: {"articles": [{"id", "text" or "xml"}]} or a list'], ['text', 'One article, plain text'], ['xml', 'One article, JATS XML']], { formatSwitch: true })}
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
  fields: html`${select('gold', 'challenge', 'Challenge', choices)}
${select('gold', 'task', 'Task', TASK_NAMES.map((t): [string, string] => [t, t]))}
${textArea('gold', 'body', 'Gold standard', { rows: 8, required: true, hint: goldHint() })}`,
})}
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
  id: number; name: string; team: string; state: string;
  progress?: { queued: number; active: number; done: number; failed: number };
  timing?: { p50Ms: number | null };
  errors?: unknown[];
}
export interface ChallengeGlance {
  challenge: Challenge & { counts?: { articles: number; servers: number; teams: number } };
  servers: GlanceServer[] | { error: string };
}

function phaseForm(c: Challenge): SafeHtml {
  const id = `phase-${c.slug}`;
  return html`<form class="api-form inline" data-api="/api/challenges/{slug}" data-method="PATCH" data-then="refresh">
<input type="hidden" name="slug" value="${c.slug}">
<label for="${id}">Phase</label>
<select id="${id}" name="phase">${['setup', 'test', 'closed'].map((p) => html`<option value="${p}"${p === c.phase ? html` selected` : ''}>${p}</option>`)}</select>
${c.phase === 'closed' ? html`<label><input type="checkbox" id="${id}-reopen" name="reopen" data-bool> reopen (a closed challenge is frozen until reopened)</label>` : ''}
<button type="submit" id="${id}-apply">Change phase</button>
<span class="status" role="status" data-status></span>
</form>`;
}

function serversTable(servers: ChallengeGlance['servers']): SafeHtml {
  if (!Array.isArray(servers)) return html`<p class="error">${servers.error}</p>`;
  if (servers.length === 0) return html`<p>No servers registered.</p>`;
  return html`<div class="table-scroll"><table><caption>Servers at a glance</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Team</th><th scope="col">State</th><th scope="col">Queued</th><th scope="col">Active</th><th scope="col">Done</th><th scope="col">Failed</th><th scope="col">Median ms</th><th scope="col">Failed attempts</th></tr></thead>
<tbody>${servers.map((s) => html`<tr><td><a href="/servers/${s.id}">${s.name}</a></td><td>${s.team}</td><td><span class="state state-${s.state}">${s.state}</span></td><td>${s.progress?.queued ?? '—'}</td><td>${s.progress?.active ?? '—'}</td><td>${s.progress?.done ?? '—'}</td><td>${s.progress?.failed ?? '—'}</td><td>${s.timing?.p50Ms ?? '—'}</td><td>${s.errors?.length ?? '—'}</td></tr>`)}</tbody></table></div>`;
}

export function organiserFragment(glances: ChallengeGlance[]): SafeHtml {
  if (glances.length === 0) return html`<p>No challenges yet.</p>`;
  return html`${glances.map(({ challenge: c, servers }) => html`<section class="challenge" aria-labelledby="ch-${c.slug}"><h3 id="ch-${c.slug}">${c.name} <span class="muted">(${c.slug})</span></h3>
<p>Phase <strong data-phase="${c.slug}">${c.phase}</strong> · tasks ${c.tasks.join(', ')}${c.counts ? ` · ${c.counts.articles} articles, ${c.counts.servers} servers, ${c.counts.teams} teams` : ''} · deadline ${c.timeoutSeconds} s, ${c.maxAttempts} attempts${c.phaseChangedAt ? html` · phase set by ${c.phaseChangedBy ?? '?'} at ${new Date(c.phaseChangedAt).toISOString()}` : ''}</p>
${phaseForm(c)}
<p>Leaderboards: ${c.tasks.map((t) => html` <a href="/challenges/${c.slug}/leaderboard/${t}">${t}</a>`)}</p>
${serversTable(servers)}
</section>`)}`;
}
