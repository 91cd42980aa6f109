// The pages' only script: keeps the organiser's and the team's tokens in localStorage (each
// under its own key, checked with GET /api/whoami before it is kept), sends forms and
// buttons to the JSON API with the page's token and says what happened in words, and fills
// (and polls) the server-rendered fragments. No framework, no build step; every event is
// delegated from the document, so fragments need no wiring.
const KEYS = { organiser: 'metaserver.token.organiser', team: 'metaserver.token.team' };
const ROLE_WORDS = { organiser: 'organiser', team: 'team' };
/** The token slot from before there was one per role; moved to its role's key once. */
const OLD_KEY = 'metaserver.token';

const askedRole = new URLSearchParams(window.location.search).get('as');
/** Whose token this page sends: its own role, else ?as=, else the organiser's if saved, else the team's. */
const pageRole = document.body.dataset.role || (askedRole in KEYS ? askedRole : '');
const tokenOf = (role) => localStorage.getItem(KEYS[role]) ?? '';
const token = () => (pageRole ? tokenOf(pageRole) : tokenOf('organiser') || tokenOf('team'));

function authHeaders(extra = {}) {
  const t = token();
  return t ? { ...extra, authorization: `Bearer ${t}` } : extra;
}

async function readAnswer(res) {
  const text = await res.text();
  try { return text ? JSON.parse(text) : null; } catch { return text; }
}

const sentence = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
const period = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** A refusal in words: the API's message, and what to do for the usual statuses. */
function errorMessage(res, body) {
  const message = body && typeof body === 'object' && body.error?.message ? body.error.message : '';
  if (res.status === 401) return `Not done: ${message || 'this needs a token'}. Paste a valid ${pageRole ? `${ROLE_WORDS[pageRole]} ` : ''}token in the token box.`;
  if (res.status >= 500) return `Not done: the meta-server failed (${res.status})${message ? `: ${message}` : ''}. Try again later.`;
  return `Not done: ${period(message || `the meta-server answered ${res.status} ${res.statusText}`)}`;
}

/** tone: 'ok' (green), 'warn' (done, but something needs a look) or 'error'. */
function showStatus(el, message, tone) {
  if (!el) return;
  const t = tone === true ? 'ok' : tone === false ? 'error' : tone ?? 'info';
  el.textContent = message;
  for (const c of ['ok', 'warn', 'error']) el.classList.toggle(c, c === t);
}

/** Replaces {name} in a template from an object (form fields or an API answer). */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(values[name] ?? '')));
}

function formValues(form) {
  const values = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (el.dataset.bool !== undefined) { values[el.name] = el.checked; continue; }
      values[el.name] ??= [];
      if (el.checked) values[el.name].push(el.value);
    } else if (el.type === 'radio') {
      if (el.checked) values[el.name] = el.value;
    } else if (el.value.trim() !== '') {
      values[el.name] = el.type === 'number' ? Number(el.value) : el.value;
    }
  }
  return values;
}

/** The request body a form's data-body asks for. */
function requestBody(kind, values) {
  if (kind === 'tsv') {
    // MENTION and COREF gold standards and runs are JSON; the others are BC II.5 tab-separated text.
    const body = values.body ?? '';
    return { type: body.trimStart().startsWith('{') ? 'application/json' : 'text/tab-separated-values; charset=utf-8', body };
  }
  if (kind === 'article') return { type: 'application/json', body: JSON.stringify({ [values.format === 'xml' ? 'xml' : 'text']: values.content ?? '' }) };
  if (kind === 'articles') {
    const content = values.content ?? '';
    let payload;
    if (values.format === 'json') {
      const parsed = JSON.parse(content);
      payload = Array.isArray(parsed) ? { articles: parsed } : parsed;
    } else {
      payload = { articles: [{ id: values.id ?? '', [values.format === 'xml' ? 'xml' : 'text']: content }] };
    }
    return { type: 'application/json', body: JSON.stringify(payload) };
  }
  return { type: 'application/json', body: JSON.stringify(values) };
}

const CHECK_WORDS = {
  timeout: 'it did not answer before the check deadline',
  connection: 'it could not be reached',
  http: 'it answered with an HTTP error',
  protocol: 'its answer is not valid XML-RPC',
  fault: 'it answered with an XML-RPC fault',
  invalid: 'its answer does not follow the task\'s format',
};
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a successful answer means, in words: [message, tone]. `say` names the form or button. */
function summary(answer, say) {
  const a = answer && typeof answer === 'object' ? answer : {};
  // Accepted while Redis was down: say that the queues catch up later.
  const notice = typeof a.notice === 'string' ? ` ${period(sentence(a.notice))}` : '';
  const done = (text, tone = 'ok') => [`${text}${notice}`, notice ? 'warn' : tone];
  switch (say) {
    case 'start': return done('Started: the server is sent the challenge\'s articles.');
    case 'pause': return done('Paused: no new articles are sent; those in flight finish.');
    case 'check': return done('The setup check is running; its result appears below.');
    case 'retry': return done(`${plural(a.requeued ?? 0, 'failed article')} sent again.`);
    case 'delete': return done('Deleted.');
    case 'phase': {
      // A published leaderboard is withdrawn by reopening; closing does not publish again by itself.
      if (a.publicationWithdrawn) return done(`The phase is now "${a.phase}". The leaderboards are no longer published: their answers may change until the challenge is closed again; then publish them again from a leaderboard page.`, 'warn');
      if (a.phase === 'closed' && a.leaderboardPublished === false) return done('The phase is now "closed". The leaderboards are not published: teams see them, visitors do not until you publish them from a leaderboard page.');
      return done(`The phase is now "${a.phase}".`);
    }
    case 'settings': return done(`Saved: deadline ${a.timeoutSeconds} s per attempt, ${plural(a.maxAttempts, 'attempt')} per article, back-off ${a.retryDelaySeconds} s, ${plural(a.serversPerTeam, 'server')} per team.`);
    default:
  }
  if ('unknownDocuments' in a && 'items' in a) {
    // Loading gold replaces the task's previous gold: say so, with what it was.
    const replaced = a.replaced ? ` It replaced the previous gold standard (${plural(a.replaced.items, 'item')} in ${plural(a.replaced.documents, 'document')}, loaded ${new Date(a.replaced.loadedAt).toLocaleString()}); scores now use this one.` : '';
    const warned = Array.isArray(a.warnings) && a.warnings.length ? ` ${plural(a.warnings.length, 'warning')}: ${a.warnings.slice(0, 3).join('; ')}${a.warnings.length > 3 ? '; …' : ''}.` : '';
    const loaded = `Gold loaded: ${plural(a.items, 'item')} in ${plural(a.documents, 'document')}.${replaced}${warned}`;
    if (!a.unknownDocuments) return done(loaded, warned ? 'warn' : 'ok');
    const ids = a.unknownDocumentIds ?? [];
    const shown = ids.length ? ` (${ids.slice(0, 5).join(', ')}${a.unknownDocuments > 5 ? ', …' : ''})` : '';
    return done(`${loaded} But ${a.unknownDocuments === 1 ? '1 document id matches' : `${a.unknownDocuments} document ids match`} no article of this challenge${shown}: their items cannot be matched until articles with these ids are loaded. Check the ids.`, 'warn');
  }
  if ('kind' in a && 'entries' in a) {
    const map = a.kind === 'ho' ? 'Homonym-ortholog map' : 'Organism map';
    return done(`${map} loaded: ${plural(a.entries, 'entry', 'entries')}. It replaces any map loaded before; leaderboards with the ${a.kind} option now score with it.`);
  }
  if ('created' in a && 'accepted' in a) return done(`${plural(a.accepted, 'article')} received, ${a.created} new.`);
  if ('runId' in a) {
    const warnings = Array.isArray(a.warnings) && a.warnings.length ? ` ${plural(a.warnings.length, 'warning')}: ${a.warnings.slice(0, 3).map((w) => w.message ?? w).join('; ')}` : '';
    return done(`Run "${a.run}" stored: your team's run ${a.n} of at most 5 for this task.${warnings}`, warnings ? 'warn' : 'ok');
  }
  if (a.checkRunning) return done(`Server "${a.name}" registered (paused); its setup check is running.`);
  if (a.check) {
    return a.check.ok
      ? done(`Server "${a.name}" registered; its setup check passed.`)
      : done(`Server "${a.name}" registered, but its setup check failed: ${CHECK_WORDS[a.check.outcome] ?? a.check.outcome}${a.check.detail ? ` (${a.check.detail})` : ''}.`, 'warn');
  }
  return done(`Done${a.name ? `: ${a.name}` : ''}.`);
}

async function afterSuccess(then, answer, statusEl) {
  for (const step of (then ?? 'refresh').split(' ')) {
    if (step === 'token' && answer?.token) {
      localStorage.setItem(KEYS.team, answer.token);
      showStatus(statusEl, `Team "${answer.name}" registered. Your team token (shown only now; it is saved in this browser as the team token — keep a copy): ${answer.token}`, 'ok');
      statusEl?.setAttribute('data-token', answer.token);
      showTokenState();
    } else if (step.startsWith('goto:')) {
      window.location.assign(fill(step.slice(5), answer ?? {}));
    } else if (step === 'reload') {
      window.location.reload();
    } else if (step === 'refresh') {
      refreshAll();
    }
  }
}

async function sendForm(form) {
  const statusEl = form.querySelector('[data-status]');
  const button = form.querySelector('button[type="submit"]');
  const values = formValues(form);
  const template = form.dataset.api;
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) delete values[name];
  let request;
  try {
    request = requestBody(form.dataset.body, values);
  } catch (err) {
    showStatus(statusEl, `Cannot read the input: ${err.message}. Check the JSON.`, 'error');
    return;
  }
  showStatus(statusEl, 'Sending…', 'info');
  if (button) button.disabled = true;
  try {
    const res = await fetch(fill(template, formValues(form)), {
      method: form.dataset.method ?? 'POST',
      headers: authHeaders({ 'content-type': request.type }),
      body: request.body,
    });
    const answer = await readAnswer(res);
    if (!res.ok) return showStatus(statusEl, errorMessage(res, answer), 'error');
    const said = summary(answer, form.dataset.say);
    showStatus(statusEl, ...said);
    // A form inside a polled region is drawn again by the refresh: it says the same again then.
    if (form.id) lastSaid.set(form.id, said);
    await afterSuccess(form.dataset.then, answer, statusEl);
  } finally {
    if (button) button.disabled = false;
  }
}

async function runAction(button) {
  const statusEl = document.getElementById(button.dataset.statusFor ?? '') ?? button.closest('section')?.querySelector('[data-status]');
  button.disabled = true;
  try {
    const res = await fetch(button.dataset.action, { method: button.dataset.method ?? 'POST', headers: authHeaders() });
    const answer = await readAnswer(res);
    if (!res.ok) return showStatus(statusEl, errorMessage(res, answer), 'error');
    showStatus(statusEl, ...summary(answer, button.dataset.say));
    await afterSuccess(button.dataset.then, answer, statusEl);
  } finally {
    button.disabled = false;
  }
}

function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The status line next to a button or in its form; a dialog only where there is none. */
function statusNear(el) {
  return el.closest('form, section')?.querySelector('[data-status]') ?? null;
}
function tell(el, message, tone) {
  const statusEl = statusNear(el);
  if (statusEl) showStatus(statusEl, message, tone);
  else if (tone === 'error') alert(message);
}

async function download(button) {
  const res = await fetch(button.dataset.download, { headers: authHeaders() });
  if (!res.ok) return tell(button, errorMessage(res, await readAnswer(res)), 'error');
  saveFile(await res.blob(), button.dataset.filename ?? 'download');
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The export form: one file as it is, several (or when asked) as one .tar.gz archive. */
async function exportAnswers(form) {
  const statusEl = form.querySelector('[data-status]');
  const [task, format] = form.elements.what.value.split('/');
  const url = form.dataset.export.replace('{task}', encodeURIComponent(task)).replace('{format}', encodeURIComponent(format));
  showStatus(statusEl, 'Exporting…', 'info');
  let leftOut = '';
  if (!form.elements.archive.checked) {
    const res = await fetch(url, { headers: authHeaders() });
    const body = await readAnswer(res);
    if (!res.ok) return showStatus(statusEl, errorMessage(res, body), 'error');
    if (body.mentionsLeftOut) leftOut = ` ${plural(body.mentionsLeftOut, 'mention')} overlapped others and could not be written in ${format}; they were left out.`;
    if (body.files.length === 0) return showStatus(statusEl, `This server has no stored ${task} answers yet: nothing to export.`, 'warn');
    if (body.files.length === 1) {
      const file = body.files[0];
      const blob = new Blob([file.content], { type: 'text/plain;charset=utf-8' });
      saveFile(blob, file.name);
      return showStatus(statusEl, `Downloaded ${file.name} (${kib(blob.size)}).${leftOut}`, leftOut ? 'warn' : 'ok');
    }
  }
  const res = await fetch(`${url}&archive=tar.gz`, { headers: authHeaders() });
  if (!res.ok) return showStatus(statusEl, errorMessage(res, await readAnswer(res)), 'error');
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${task}.${format}.tar.gz`;
  const blob = await res.blob();
  saveFile(blob, name);
  showStatus(statusEl, `Downloaded ${name} (${kib(blob.size)}).${leftOut}`, leftOut ? 'warn' : 'ok');
}

/** What each form (by id) last said, shown again when a refreshed fragment draws it anew. */
const lastSaid = new Map();
function sayAgain(root) {
  for (const [id, said] of lastSaid) {
    const form = root.querySelector(`#${CSS.escape(id)}`);
    if (form) showStatus(form.querySelector('[data-status]'), ...said);
  }
}

const timers = new Map();
/** The newest load of each fragment: an older answer arriving late must not overwrite a newer one. */
const latest = new Map();

/** Form controls (with an id) that the user has changed from what the page rendered. */
function editedControls(root) {
  const edits = [];
  for (const c of root.querySelectorAll('input[id], select[id], textarea[id]')) {
    if (c.type === 'hidden') continue;
    const changed = c.tagName === 'SELECT'
      ? [...c.options].some((o) => o.selected !== o.defaultSelected)
      : c.type === 'checkbox' || c.type === 'radio' ? c.checked !== c.defaultChecked : c.value !== c.defaultValue;
    if (changed) edits.push({ id: c.id, value: c.value, checked: c.checked });
  }
  return edits;
}

/** A refresh must not undo what someone is typing or choosing in the region. */
function restoreControls(edits) {
  for (const { id, value, checked } of edits) {
    const c = document.getElementById(id);
    if (!c) continue;
    if (c.type === 'checkbox' || c.type === 'radio') c.checked = checked;
    else c.value = value;
  }
}

/**
 * Loads a fragment; keeps keyboard focus on the element with the same id after the swap.
 * Polling stops once the fragment says it is final, or on a refusal (4xx: a missing
 * article, a missing or refused token) that asking again would only repeat; saving a
 * token reloads every fragment.
 */
async function loadFragment(el) {
  clearTimeout(timers.get(el));
  const ticket = (latest.get(el) ?? 0) + 1;
  latest.set(el, ticket);
  // Without a token the API could only refuse: say what to do instead of asking it.
  if (el.dataset.needsToken && !token()) {
    el.replaceChildren(Object.assign(document.createElement('p'), { className: 'notice', textContent: el.dataset.needsToken }));
    el.setAttribute('data-stopped', '');
    return;
  }
  let refused = false;
  try {
    const res = await fetch(el.dataset.fragment, { headers: authHeaders({ accept: 'text/html' }) });
    const markup = await res.text();
    if (latest.get(el) !== ticket) return;
    refused = res.status >= 400 && res.status < 500;
    const focusedId = el.contains(document.activeElement) ? document.activeElement.id : '';
    const edits = editedControls(el);
    el.innerHTML = markup;
    nameThePage(el);
    sayAgain(el);
    focusableScrollers(el);
    restoreControls(edits);
    if (focusedId) document.getElementById(focusedId)?.focus();
  } catch (err) {
    if (latest.get(el) !== ticket) return;
    el.innerHTML = '';
    el.append(Object.assign(document.createElement('p'), { className: 'error', textContent: `Cannot reach the meta-server (${err.message}); trying again.` }));
  }
  el.toggleAttribute('data-stopped', refused);
  const poll = Number(el.dataset.poll ?? 0);
  if (poll > 0 && !refused && !el.querySelector('[data-final]')) timers.set(el, setTimeout(() => loadFragment(el), poll));
}

/**
 * A fragment that knows what the page is about (a server's or an article's name, which only
 * a token may read) names it in the page's h1 and title, instead of "Article" or a number.
 */
function nameThePage(root) {
  const source = root.querySelector('[data-heading]');
  const h1 = document.querySelector('main h1');
  if (!source || !h1) return;
  const note = source.dataset.headingNote;
  const text = `${source.dataset.heading}${note ? ` (${note})` : ''}`;
  if (h1.textContent === text) return;
  h1.replaceChildren(source.dataset.heading, ...(note ? [' ', Object.assign(document.createElement('span'), { className: 'muted', textContent: `(${note})` })] : []));
  document.title = `${source.dataset.heading} · metaserver`;
}

/**
 * A table wider than the screen scrolls inside its box; keyboard users must reach it too,
 * so a box that scrolls takes focus (named by its table's caption), and one that does not
 * is no extra tab stop.
 */
function focusableScrollers(root = document) {
  for (const box of root.querySelectorAll('.table-scroll')) {
    const scrolls = box.scrollWidth > box.clientWidth;
    if (scrolls && !box.hasAttribute('tabindex')) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', box.querySelector('caption')?.textContent?.trim() || 'Table (scrolls sideways)');
    } else if (!scrolls && box.getAttribute('role') === 'region') {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}
let resizeTimer;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => focusableScrollers(), 100);
});

function refreshAll() {
  for (const el of document.querySelectorAll('[data-fragment]')) loadFragment(el);
}

/** Whose token a token is: { role: 'organiser' | 'team' | 'anonymous', team? } or { refused } or { failed }. */
async function whoami(t) {
  try {
    const res = await fetch('/api/whoami', { headers: { authorization: `Bearer ${t}` } });
    const body = await readAnswer(res);
    if (res.status === 401) return { refused: true };
    if (!res.ok) return { failed: errorMessage(res, body) };
    return body;
  } catch (err) {
    return { failed: `the meta-server cannot be reached (${err.message})` };
  }
}
const whose = (who) => (who.role === 'organiser' ? 'the organiser' : `team "${who.team.name}"`);
const roleOf = (who) => (who.role === 'organiser' ? 'organiser' : 'team');

/** The token box's line: which token this page uses, checked with the meta-server. */
async function showTokenState() {
  const el = document.querySelector('[data-token-status]');
  if (!el) return;
  const role = el.closest('[data-token-form]')?.dataset.role ?? pageRole;
  const t = tokenOf(role);
  if (!t) return showStatus(el, `No ${ROLE_WORDS[role]} token is saved in this browser.`, 'info');
  const who = await whoami(t);
  if (who.refused) return showStatus(el, `The ${ROLE_WORDS[role]} token saved in this browser (ending …${t.slice(-4)}) is no longer accepted. Paste a valid one.`, 'error');
  if (who.failed) return showStatus(el, `A ${ROLE_WORDS[role]} token is saved, but it could not be checked: ${who.failed}`, 'warn');
  showStatus(el, `Using ${whose(who)}'s token (ending …${t.slice(-4)}).`, 'ok');
}

/** Saves a pasted token under the role it really belongs to, after asking whose it is. */
async function saveToken(form) {
  const role = form.dataset.role;
  const statusEl = form.querySelector('[data-token-status]');
  const t = form.elements.token.value.trim();
  showStatus(statusEl, 'Checking the token…', 'info');
  const who = await whoami(t);
  if (who.refused) return showStatus(statusEl, 'This token was refused: it is neither the organiser token nor a registered team\'s token. Nothing was saved; check that you copied all of it.', 'error');
  if (who.failed) return showStatus(statusEl, `The token could not be checked, so it was not saved: ${who.failed}`, 'error');
  const actual = roleOf(who);
  // Another role's token kept here may have been shown only once (a team's at registration):
  // a token pasted in the wrong box never replaces it.
  const kept = tokenOf(actual);
  if (actual !== role && kept && kept !== t) {
    return showStatus(statusEl, `This is ${whose(who)}'s token, not the ${ROLE_WORDS[role]} token. Nothing was saved: this browser already keeps a ${actual} token (ending …${kept.slice(-4)}), which this one would replace. To use this one instead, forget the kept token in the ${actual === 'team' ? 'Team' : 'Organiser'} page's token box (keep a copy of it first), then paste this one there.`, 'error');
  }
  localStorage.setItem(KEYS[actual], t);
  form.reset();
  if (actual !== role) {
    return showStatus(statusEl, `This is ${whose(who)}'s token, not the ${ROLE_WORDS[role]} token. It was saved as the ${actual} token (for the ${actual === 'team' ? 'Team' : 'Organiser'} page); this page still needs the ${ROLE_WORDS[role]} token.`, 'warn');
  }
  showStatus(statusEl, `Saved: ${whose(who)}'s token. It stays in this browser only.`, 'ok');
  refreshAll();
}

/** Offers, in the form of a challenge chooser, only the chosen challenge's tasks. */
function filterTasks(select) {
  const tasks = (select.selectedOptions[0]?.dataset.tasks ?? '').split(' ').filter(Boolean);
  for (const box of select.form.querySelectorAll('input[type="checkbox"][name="tasks"]')) {
    const offered = tasks.includes(box.value);
    box.disabled = !offered;
    box.checked = offered;
    box.closest('.check').hidden = !offered;
  }
  for (const choice of select.form.querySelectorAll('select[name="task"]')) {
    for (const option of choice.options) option.hidden = option.disabled = !tasks.includes(option.value);
    if (choice.selectedOptions[0]?.disabled) choice.value = [...choice.options].find((o) => !o.disabled)?.value ?? '';
  }
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form.matches('[data-token-form]')) {
    event.preventDefault();
    saveToken(form).catch((err) => showStatus(form.querySelector('[data-token-status]'), `The token could not be checked: ${err.message}`, 'error'));
  } else if (form.matches('[data-api]')) {
    event.preventDefault();
    sendForm(form).catch((err) => showStatus(form.querySelector('[data-status]'), `Not done: ${err.message}`, 'error'));
  } else if (form.matches('[data-export]')) {
    event.preventDefault();
    exportAnswers(form).catch((err) => showStatus(form.querySelector('[data-status]'), `Not exported: ${err.message}`, 'error'));
  }
});

document.addEventListener('click', (event) => {
  const target = event.target.closest('button');
  if (!target) return;
  if (target.matches('[data-forget-token]')) {
    localStorage.removeItem(KEYS[target.closest('[data-token-form]')?.dataset.role ?? pageRole]);
    showTokenState();
    refreshAll();
  } else if (target.matches('[data-action]')) {
    runAction(target).catch((err) => tell(target, `Not done: ${err.message}`, 'error'));
  } else if (target.matches('[data-download]')) {
    download(target).catch((err) => tell(target, `Not downloaded: ${err.message}`, 'error'));
  }
});

document.addEventListener('change', (event) => {
  // The article format switch shows the id field only when it is needed.
  const formatSwitch = event.target.closest('[data-format-switch]');
  const idField = formatSwitch?.form?.querySelector('[data-needs-id]');
  if (idField) idField.hidden = formatSwitch.value === 'json';
  const challenge = event.target.closest('[data-task-filter]');
  if (challenge) filterTasks(challenge);
});

/** A token saved before there was one slot per role goes to the slot of its role. */
async function moveOldToken() {
  const old = localStorage.getItem(OLD_KEY);
  if (!old) return;
  const who = await whoami(old);
  if (who.failed) return;
  if (!who.refused && !tokenOf(roleOf(who))) localStorage.setItem(KEYS[roleOf(who)], old);
  localStorage.removeItem(OLD_KEY);
}

for (const select of document.querySelectorAll('[data-task-filter]')) filterTasks(select);
focusableScrollers();
moveOldToken().finally(() => {
  showTokenState();
  refreshAll();
});
