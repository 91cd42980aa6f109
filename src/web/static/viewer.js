// The annotation viewer of the article page (src/web/viewer.ts builds its markup): shows
// and hides each server's (and the consensus's) mentions, moves the keyboard from mention
// to mention (one tab stop, arrow keys inside: a roving tabindex), and shows in a panel
// which servers found the selected mention. Offsets are never computed here: the server
// cut the text at code-point boundaries, and the panel shows the offsets it sent.
// The article fragment is reloaded while servers work, so every new viewer is set up again
// (a MutationObserver), keeping the selection by position.

const STYLES = 8;
const typeClass = (t) => (t < STYLES ? `t${t}` : 'tx');
const viewers = new WeakSet();
/** The selected mark's position, and whether it had the keyboard, kept across reloads of the fragment. */
let remembered = -1;
/** The mark that last had the keyboard: if a reload removed it, its successor gets the focus. */
let focusedMark = null;

function setUp(root) {
  viewers.add(root);
  const dataEl = root.querySelector('[data-viewer-data]');
  const textEl = root.querySelector('[data-article-text]');
  const panel = root.querySelector('[data-viewer-panel]');
  if (!dataEl || !textEl || !panel) return;
  const data = JSON.parse(dataEl.textContent);
  const marks = Array.from(textEl.querySelectorAll('mark[data-m]'));
  const covering = marks.map((m) => m.dataset.m.split(' ').map(Number));
  const index = new Map(marks.map((m, i) => [m, i]));
  const boxes = Array.from(root.querySelectorAll('[data-viewer-source]'));
  let shown = [];
  let keyOn = [];
  let selected = -1;

  const visible = (i) => covering[i].some((k) => keyOn[k]);

  /** The class of mark i: off, its one type's, or mixed (no allocation: ~10,000 marks per toggle). */
  function classOf(i) {
    let type = -1;
    let mixed = false;
    for (const k of covering[i]) {
      if (!keyOn[k]) continue;
      const t = data.mentions[k][2];
      if (type < 0) type = t;
      else if (t !== type) mixed = true;
    }
    if (type < 0) return 'ann off';
    const base = mixed ? 'ann tmix' : `ann ${typeClass(type)}`;
    return i === selected ? `${base} selected` : base;
  }

  /** Classes, roles and the one tab stop after a change of what is shown or selected. */
  function apply() {
    performance.mark('viewer-apply-start');
    shown = [];
    for (const box of boxes) shown[Number(box.dataset.viewerSource)] = box.checked;
    keyOn = data.mentions.map((m) => m[3].some((s) => shown[s]));
    if (selected >= 0 && !visible(selected)) selected = -1;
    let stop = selected;
    for (let i = 0; i < marks.length; i++) {
      const mark = marks[i];
      const cls = classOf(i);
      if (mark.className !== cls) {
        mark.className = cls;
        if (cls === 'ann off') mark.removeAttribute('role');
        else mark.setAttribute('role', 'button');
      }
      if (stop < 0 && cls !== 'ann off') stop = i;
    }
    for (const m of textEl.querySelectorAll('mark[tabindex="0"]')) m.tabIndex = -1;
    if (stop >= 0) marks[stop].tabIndex = 0;
    performance.measure('viewer-apply', 'viewer-apply-start');
    if (selected < 0) showNothing();
    else describe(selected);
  }

  function showNothing() {
    panel.replaceChildren(element('p', { className: 'muted' }, 'None selected yet.'));
  }

  function element(tag, props = {}, ...children) {
    const el = Object.assign(document.createElement(tag), props);
    el.append(...children);
    return el;
  }

  function sourceList(indexes) {
    const list = element('ul', { className: 'compact' });
    for (const s of indexes) {
      const hidden = shown[s] ? '' : ' (hidden now)';
      list.append(element('li', {}, `${data.sources[s].label}${hidden}`));
    }
    return list;
  }

  /** Each concept id: a link to its database entry (text for an unknown namespace), and who gave it. */
  function idList(ids) {
    const list = element('ul', { className: 'compact' });
    for (const [id, href, database, sources] of ids) {
      const accession = id.slice(id.indexOf(':') + 1);
      const name = href ? element('a', { href, rel: 'external noopener' }, `${database} ${accession}`) : element('span', {}, database ? `${database} ${accession}` : id);
      const servers = sources.filter((s) => !data.sources[s].consensus).length;
      const kept = sources.some((s) => data.sources[s].consensus) ? ', kept by the consensus' : '';
      list.append(element('li', {}, name, ' ', element('span', { className: 'muted' }, `(${id}; given by ${servers} server${servers === 1 ? '' : 's'}${kept})`)));
    }
    return list;
  }

  /** Who found each mention covering the selected mark, and who did not. */
  function describe(i) {
    const servers = data.sources.map((s, n) => (s.consensus ? -1 : n)).filter((n) => n >= 0);
    const parts = [];
    for (const k of covering[i]) {
      const [start, end, type, found, text, link, ids] = data.mentions[k];
      const section = element('section', { className: 'panel-mention' });
      const swatch = element('span', { className: `ann ${typeClass(type)} swatch` }, data.types[type]);
      section.append(element('p', {}, element('strong', {}, `“${text}”`), ' ', swatch, element('br'), element('span', { className: 'muted' }, `code points ${start}–${end}`)));
      if (link) {
        const site = link.includes('uniprot.org') ? 'UniProt entry' : 'NCBI Taxonomy entry';
        section.append(element('p', {}, element('a', { href: link, rel: 'external noopener' }, `${site} ${text}`)));
      }
      if (ids && ids.length) section.append(element('p', {}, 'Concept identifiers:'), idList(ids));
      const foundServers = found.filter((s) => !data.sources[s].consensus);
      section.append(element('p', { className: 'found-by' }, `Found by ${foundServers.length} of ${servers.length} server${servers.length === 1 ? '' : 's'}:`));
      if (foundServers.length) section.append(sourceList(foundServers));
      const missing = servers.filter((s) => !found.includes(s));
      if (missing.length) section.append(element('p', {}, 'Not found by:'), sourceList(missing));
      const consensus = data.sources.findIndex((s) => s.consensus);
      if (consensus >= 0) section.append(element('p', {}, found.includes(consensus) ? 'Kept by the consensus.' : 'Not kept by the consensus.'));
      parts.push(section);
    }
    panel.replaceChildren(...parts);
  }

  function select(i, focus) {
    if (i < 0 || i >= marks.length || !visible(i)) return;
    const before = selected;
    selected = i;
    remembered = i;
    if (before >= 0) marks[before].className = classOf(before);
    marks[i].className = classOf(i);
    for (const m of textEl.querySelectorAll('mark[tabindex="0"]')) m.tabIndex = -1;
    marks[i].tabIndex = 0;
    if (focus) marks[i].focus();
    describe(i);
  }

  function step(from, direction) {
    for (let i = from + direction; i >= 0 && i < marks.length; i += direction) if (visible(i)) return i;
    return -1;
  }

  textEl.addEventListener('click', (event) => {
    const mark = event.target.closest('mark[data-m]');
    if (mark) select(index.get(mark), true);
  });
  textEl.addEventListener('focusin', (event) => {
    const i = index.get(event.target);
    if (i === undefined) return;
    focusedMark = event.target;
    if (i !== selected) select(i, false);
  });
  textEl.addEventListener('keydown', (event) => {
    const i = index.get(event.target);
    if (i === undefined) return;
    let next;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = step(i, 1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = step(i, -1);
    else if (event.key === 'Home') next = step(-1, 1);
    else if (event.key === 'End') next = step(marks.length, -1);
    else if (event.key === 'Enter' || event.key === ' ') next = i;
    else return;
    event.preventDefault();
    if (next >= 0) select(next, true);
  });
  root.addEventListener('change', (event) => {
    if (event.target.matches('[data-viewer-source]')) apply();
  });
  root.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.matches('[data-viewer-only]')) {
      for (const box of boxes) box.checked = box.dataset.viewerSource === button.dataset.viewerOnly;
    } else if (button.matches('[data-viewer-all]')) {
      for (const box of boxes) box.checked = !data.sources[Number(box.dataset.viewerSource)].consensus;
    } else return;
    apply();
  });

  apply();
  // A reload while servers work: the same selection, and the focus if the reload took it
  // from a mark (it is then on the page's body), without announcing the panel again.
  const lostFocus = focusedMark !== null && !focusedMark.isConnected && (document.activeElement === document.body || document.activeElement === null);
  if (remembered >= 0 && remembered < marks.length && visible(remembered)) {
    panel.setAttribute('aria-live', 'off');
    select(remembered, lostFocus);
    setTimeout(() => panel.setAttribute('aria-live', 'polite'), 0);
  }
  root.dataset.viewerReady = 'true';
  performance.mark('viewer-ready');
}

function setUpAll() {
  for (const root of document.querySelectorAll('[data-viewer]')) if (!viewers.has(root)) setUp(root);
}

new MutationObserver(setUpAll).observe(document.body, { childList: true, subtree: true });
setUpAll();
