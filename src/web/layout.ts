// The page shell shared by every page: language, title, navigation, the stylesheet and the
// script, the token box (the token lives in the browser's localStorage only), and the form
// controls, each input with its label.
import { html, type HtmlValue, type SafeHtml } from './html.ts';
import { TASK_NAMES, tasksWith } from '../families/registry.ts';

export interface PageOptions {
  title: string;
  /** The path of the page, to mark the current navigation link. */
  path: string;
  body: HtmlValue;
  /**
   * Whose token the page sends: the organiser's or a team's, each kept under its own key, so
   * registering a team in the organiser's browser never replaces the organiser token. Pages
   * without a role send the organiser token if there is one, else the team's (or the one
   * named by ?as=organiser|team in the URL).
   */
  role?: Role;
}

export type Role = 'organiser' | 'team';

const NAV: Array<[string, string]> = [
  ['/', 'Home'],
  ['/team', 'Team'],
  ['/organiser', 'Organiser'],
  ['/docs', 'API'],
];

/** The static files every page links (hashed URLs; served by routes.ts). */
export interface StaticAssets {
  cssUrl: string;
  jsUrl: string;
  /** More stylesheets and module scripts every page loads after those (the annotation viewer's, the leaderboard's). */
  extraCss?: string[];
  extraJs?: string[];
  /** The site icon's URL (with its content hash). */
  iconUrl?: string;
}

export function page(assets: StaticAssets, o: PageOptions): string {
  const links = NAV.map(
    ([href, label]) => html`<li><a href="${href}"${o.path === href ? html` aria-current="page"` : ''}>${label}</a></li>`,
  );
  // SafeHtml prints its markup (toString); the doctype cannot be written inside `html`.
  // eslint-disable-next-line @typescript-eslint/restrict-template-expressions
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · metaserver</title>
<link rel="stylesheet" href="${assets.cssUrl}">
${assets.iconUrl ? html`<link rel="icon" type="image/svg+xml" href="${assets.iconUrl}">` : ''}
${(assets.extraCss ?? []).map((url) => html`<link rel="stylesheet" href="${url}">`)}
<script type="module" src="${assets.jsUrl}"></script>
${(assets.extraJs ?? []).map((url) => html`<script type="module" src="${url}"></script>`)}
</head>
<body${o.role ? html` data-role="${o.role}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><p class="brand"><a href="/">metaserver</a></p><nav aria-label="Main"><ul>${links}</ul></nav></header>
<main id="main" tabindex="-1">
${o.body}
</main>
<footer class="site"><p>An annotation meta-server in the style of the BioCreative Meta-Server. The JSON API is described at <a href="/docs">/docs</a>.</p></footer>
</body>
</html>`}`;
}

/**
 * Where the user pastes the page's token; app.js asks GET /api/whoami whose it is before it
 * keeps it (in localStorage, under the role's own key) and says so in words.
 */
export function tokenBox(role: Role): SafeHtml {
  const who = role === 'organiser' ? 'organiser' : 'team';
  return html`<section class="card token-box" aria-labelledby="token-heading">
<h2 id="token-heading">Your ${who} token</h2>
<p>Paste the ${who} token. It is checked, then kept in this browser only (apart from any ${role === 'organiser' ? 'team' : 'organiser'} token) and sent with each request as <code>Authorization: Bearer …</code>.</p>
<form data-token-form data-role="${role}">
<label for="token-input">Token</label>
<input id="token-input" name="token" type="password" autocomplete="off" spellcheck="false" required>
<div class="buttons"><button type="submit">Use this token</button> <button type="button" data-forget-token>Forget token</button></div>
<p class="status" role="status" aria-live="polite" data-token-status></p>
</form>
</section>`;
}

/**
 * A form the script sends to the JSON API. `data-api` may hold {field} placeholders filled
 * from the form's fields; the answer is shown in the form's status line.
 */
export function apiForm(o: {
  api: string;
  method?: string;
  body?: 'json' | 'tsv' | 'articles' | 'article';
  then?: string;
  label: string;
  fields: HtmlValue;
  id?: string;
  say?: string;
}): SafeHtml {
  return html`<form class="api-form" data-api="${o.api}" data-method="${o.method ?? 'POST'}" data-body="${o.body ?? 'json'}"${o.then ? html` data-then="${o.then}"` : ''}${o.say ? html` data-say="${o.say}"` : ''}${o.id ? html` id="${o.id}"` : ''}>
${o.fields}
<div class="buttons"><button type="submit">${o.label}</button></div>
<div class="status" role="status" aria-live="polite" data-status></div>
</form>`;
}

/**
 * A region the script fills from a fragment URL (with the token), optionally every `pollMs`.
 * Polled regions are not live regions: a screen reader would re-read them every few seconds.
 */
export function fragment(url: string, o: { pollMs?: number; label: string; id?: string; needsToken?: string }): SafeHtml {
  return html`<div class="fragment" data-fragment="${url}"${o.pollMs ? html` data-poll="${o.pollMs}"` : ''}${o.id ? html` id="${o.id}"` : ''}${o.needsToken ? html` data-needs-token="${o.needsToken}"` : ''} aria-live="${o.pollMs ? 'off' : 'polite'}" aria-label="${o.label}"><p class="loading">Loading…</p></div>`;
}

/**
 * What a region that needs a token says when the browser has none (app.js then does not
 * ask the API, which could only refuse): what to paste where, for a person.
 */
export const NEEDS_TOKEN = {
  organiser: 'This part needs the organiser token: paste it in the token box on the Organiser page (it stays in this browser).',
  organiserHere: 'Paste the organiser token in the token box above to see the challenges and their servers.',
  teamHere: 'Paste your team token in the token box above, or register a team below, to see your servers.',
  owner:
    'This part needs a token: open it from the Team page with your team token saved, or from the Organiser page with the organiser token saved.',
  article:
    "This article is not public (or there is no such article): a challenge's articles are shown to the organiser and to the teams taking part. Save your token on the Team or Organiser page, then come back.",
  leaderboard:
    'This leaderboard is not published yet. The organiser sees it with the organiser token, and teams once the challenge is closed (save your token on the Team or Organiser page, then come back).',
} as const;

// Form controls.
/** Ids must be unique in a page; a prefix per form keeps them readable. */
const idFor = (prefix: string, name: string) => `${prefix}-${name}`;

export function textField(
  prefix: string,
  name: string,
  label: string,
  o: { type?: string; required?: boolean; placeholder?: string; min?: number; step?: string; hint?: string; value?: string } = {},
): SafeHtml {
  const id = idFor(prefix, name);
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" type="${o.type ?? 'text'}"${o.required ? html` required` : ''}${o.placeholder ? html` placeholder="${o.placeholder}"` : ''}${o.min !== undefined ? html` min="${o.min}"` : ''}${o.step ? html` step="${o.step}"` : ''}${o.value !== undefined ? html` value="${o.value}"` : ''}${o.hint ? html` aria-describedby="${id}-hint"` : ''}>${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}</div>`;
}

export function textArea(
  prefix: string,
  name: string,
  label: string,
  o: { rows?: number; required?: boolean; hint?: string } = {},
): SafeHtml {
  const id = idFor(prefix, name);
  return html`<div class="field"><label for="${id}">${label}</label><textarea id="${id}" name="${name}" rows="${o.rows ?? 6}"${o.required ? html` required` : ''}${o.hint ? html` aria-describedby="${id}-hint"` : ''} spellcheck="false"></textarea>${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}</div>`;
}

export function select(
  prefix: string,
  name: string,
  label: string,
  options: Array<[string, string]>,
  o: { formatSwitch?: boolean } = {},
): SafeHtml {
  const id = idFor(prefix, name);
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}"${o.formatSwitch ? html` data-format-switch` : ''}>${options.map(([value, text]) => html`<option value="${value}">${text}</option>`)}</select></div>`;
}

/** The tasks a form ticks by default: each family says on which forms it is preselected. */
export const preselected = (form: 'server' | 'challenge'): readonly string[] => tasksWith((f) => f.web.preselected?.includes(form));

export function taskBoxes(prefix: string, checked: readonly string[] = preselected('server')): SafeHtml {
  return html`<fieldset class="field"><legend>Tasks</legend>${TASK_NAMES.map((t) => {
    const id = `${idFor(prefix, 'task')}-${t}`;
    return html`<span class="check"><input type="checkbox" id="${id}" name="tasks" value="${t}"${checked.includes(t) ? html` checked` : ''}><label for="${id}">${t}</label></span>`;
  })}</fieldset>`;
}

/**
 * A challenge chooser whose options name each challenge's tasks: app.js then offers, in the
 * same form, only those tasks (task boxes and task selects), ticking them all.
 */
export function challengeSelect(
  prefix: string,
  challenges: ReadonlyArray<{ slug: string; name: string; tasks: readonly string[] }>,
  label = 'Challenge',
): SafeHtml {
  const id = idFor(prefix, 'challenge');
  if (challenges.length === 0) return html`<p class="field">No challenge takes this now.</p>`;
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="challenge" data-task-filter>${challenges.map(
    (c) => html`<option value="${c.slug}" data-tasks="${c.tasks.join(' ')}">${c.name} (${c.slug})</option>`,
  )}</select></div>`;
}
