// The pages' only script: keeps the pasted token in localStorage, sends forms and buttons to
// the JSON API with it, and fills (and polls) the server-rendered fragments. No framework,
// no build step; every event is delegated from the document, so fragments need no wiring.
const TOKEN_KEY = 'metaserver.token';
const token = () => localStorage.getItem(TOKEN_KEY) ?? '';

function authHeaders(extra = {}) {
  const t = token();
  return t ? { ...extra, authorization: `Bearer ${t}` } : extra;
}

async function readAnswer(res) {
  const text = await res.text();
  try { return text ? JSON.parse(text) : null; } catch { return text; }
}

function errorMessage(res, body) {
  if (body && typeof body === 'object' && body.error) return `${res.status}: ${body.error.message}`;
  return `${res.status}: ${typeof body === 'string' && body ? body.slice(0, 300) : res.statusText}`;
}

function showStatus(el, message, ok) {
  if (!el) return;
  el.textContent = message;
  el.classList.toggle('ok', ok);
  el.classList.toggle('error', !ok);
}

/** Replaces {name} in a template from an object (form fields or an API answer). */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(values[name] ?? '')));
}

function formValues(form) {
  const values = {};
  const arrays = new Set();
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (el.dataset.bool !== undefined) { values[el.name] = el.checked; continue; }
      arrays.add(el.name);
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
    // MENTION and COREF gold standards are JSON; the others are BC II.5 tab-separated text.
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

async function afterSuccess(then, answer, statusEl) {
  for (const step of (then ?? 'refresh').split(' ')) {
    if (step === 'token' && answer?.token) {
      localStorage.setItem(TOKEN_KEY, answer.token);
      showStatus(statusEl, `Team "${answer.name}" registered. Your token (shown only now; it is saved in this browser — keep a copy): ${answer.token}`, true);
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
  const values = formValues(form);
  const template = form.dataset.api;
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) delete values[name];
  let request;
  try {
    request = requestBody(form.dataset.body, values);
  } catch (err) {
    showStatus(statusEl, `Cannot read the input: ${err.message}`, false);
    return;
  }
  showStatus(statusEl, 'Sending…', true);
  const res = await fetch(fill(template, formValues(form)), {
    method: form.dataset.method ?? 'POST',
    headers: authHeaders({ 'content-type': request.type }),
    body: request.body,
  });
  const answer = await readAnswer(res);
  if (!res.ok) return showStatus(statusEl, errorMessage(res, answer), false);
  showStatus(statusEl, summary(answer), true);
  await afterSuccess(form.dataset.then, answer, statusEl);
}

function summary(answer) {
  if (!answer || typeof answer !== 'object') return 'Done.';
  // Accepted while Redis was down: say that the queues catch up later.
  if (typeof answer.notice === 'string') return `${summary({ ...answer, notice: undefined })} ${answer.notice}.`;
  if ('requeued' in answer) return `Done: ${answer.requeued} article(s) sent again.`;
  if ('created' in answer && 'accepted' in answer) return `Done: ${answer.accepted} article(s) received, ${answer.created} new.`;
  if ('items' in answer && 'documents' in answer) return `Done: gold with ${answer.items} item(s) in ${answer.documents} document(s) loaded.`;
  if (answer.check) return `Done. Check: ${answer.check.outcome}${answer.check.detail ? ` (${answer.check.detail})` : ''}.`;
  return `Done${answer.name ? `: ${answer.name}` : ''}${answer.phase ? ` (phase ${answer.phase})` : ''}${answer.state ? ` (${answer.state})` : ''}.`;
}

async function runAction(button) {
  const statusEl = document.getElementById(button.dataset.statusFor ?? '') ?? button.closest('section')?.querySelector('[data-status]');
  button.disabled = true;
  try {
    const res = await fetch(button.dataset.action, { method: button.dataset.method ?? 'POST', headers: authHeaders() });
    const answer = await readAnswer(res);
    if (!res.ok) return showStatus(statusEl, errorMessage(res, answer), false);
    showStatus(statusEl, summary(answer), true);
    await afterSuccess(button.dataset.then, answer, statusEl);
  } finally {
    button.disabled = false;
  }
}

async function download(button) {
  const res = await fetch(button.dataset.download, { headers: authHeaders() });
  if (!res.ok) return alert(errorMessage(res, await readAnswer(res)));
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: button.dataset.filename ?? 'download' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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

/** Loads a fragment; keeps keyboard focus on the element with the same id after the swap. */
async function loadFragment(el) {
  clearTimeout(timers.get(el));
  const ticket = (latest.get(el) ?? 0) + 1;
  latest.set(el, ticket);
  try {
    const res = await fetch(el.dataset.fragment, { headers: authHeaders({ accept: 'text/html' }) });
    const markup = await res.text();
    if (latest.get(el) !== ticket) return;
    const focusedId = el.contains(document.activeElement) ? document.activeElement.id : '';
    const edits = editedControls(el);
    el.innerHTML = markup;
    restoreControls(edits);
    if (focusedId) document.getElementById(focusedId)?.focus();
  } catch (err) {
    if (latest.get(el) !== ticket) return;
    el.innerHTML = '';
    el.append(Object.assign(document.createElement('p'), { className: 'error', textContent: `Cannot reach the meta-server: ${err.message}` }));
  }
  const poll = Number(el.dataset.poll ?? 0);
  if (poll > 0 && !el.querySelector('[data-final]')) timers.set(el, setTimeout(() => loadFragment(el), poll));
}

function refreshAll() {
  for (const el of document.querySelectorAll('[data-fragment]')) loadFragment(el);
}

function showTokenState() {
  const t = token();
  const el = document.querySelector('[data-token-status]');
  showStatus(el, t ? `A token ending in …${t.slice(-4)} is saved in this browser.` : 'No token saved.', Boolean(t));
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form.matches('[data-token-form]')) {
    event.preventDefault();
    localStorage.setItem(TOKEN_KEY, form.elements.token.value.trim());
    form.reset();
    showTokenState();
    refreshAll();
  } else if (form.matches('[data-api]')) {
    event.preventDefault();
    sendForm(form).catch((err) => showStatus(form.querySelector('[data-status]'), `Failed: ${err.message}`, false));
  }
});

document.addEventListener('click', (event) => {
  const target = event.target.closest('button');
  if (!target) return;
  if (target.matches('[data-forget-token]')) {
    localStorage.removeItem(TOKEN_KEY);
    showTokenState();
    refreshAll();
  } else if (target.matches('[data-action]')) {
    runAction(target).catch((err) => alert(err.message));
  } else if (target.matches('[data-download]')) {
    download(target).catch((err) => alert(err.message));
  }
});

// The article format switch shows the id field only when it is needed.
document.addEventListener('change', (event) => {
  const select = event.target.closest('[data-format-switch]');
  if (!select) return;
  const idField = select.form?.querySelector('[data-needs-id]');
  if (idField) idField.hidden = select.value === 'json';
});

showTokenState();
refreshAll();
