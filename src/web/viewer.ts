// The annotation viewer of the article page, built on the server: the text cut into
// segments at every mention boundary, each covered segment a <mark> naming the mentions
// that cover it (`data-m`, indexes into the data block), coloured by entity type with an
// underline style per type too (never colour alone). The browser script (static/viewer.js)
// only switches sources on and off, moves the keyboard between marks and shows who found
// the selected mention; it never counts offsets. Offsets count Unicode code points, so the
// text is split with Array.from and never indexed with .slice/.substring. A mention's
// concept ids go to the panel with their database links (conceptIdLink) and who gave each.
import { html, join, raw, type SafeHtml } from './html.ts';
import { taxonomyEntry, uniprotEntry } from '../families/common/entry-links.ts';
import { isAccession } from '../uniprot/pattern.ts';
import { conceptIdLink } from '../tasks/concept-ids.ts';

export interface ViewerMention {
  start: number;
  end: number;
  text: string;
  type?: string;
  /** Concept ids (`NS:accession`): the panel links each to its database. */
  ids?: readonly string[];
}

/** A server (or the consensus) whose mentions can be shown. */
export interface ViewerSource {
  /** For people, unique in the page: the team is always part of it. */
  label: string;
  mentions: readonly ViewerMention[];
  /** Shown when the page opens (the consensus starts hidden). */
  shown: boolean;
  consensus?: boolean;
}

/** One distinct (span, type), with the sources that found it. */
interface MentionKey {
  start: number;
  end: number;
  text: string;
  type: number;
  sources: number[];
  link?: string;
  /** Each concept id given for the mention, with the sources that gave it. */
  ids: Map<string, number[]>;
}

/** How many entity types get a colour and underline of their own; the others share one style. */
const TYPE_STYLES = 8;
const UNTYPED = 'untyped';

const TAXON_TYPE = /tax|species|organism/i;

/** A database entry for a mention's text, where the text itself is an identifier. */
export function mentionLink(text: string, type: string): string | undefined {
  if (isAccession(text)) return uniprotEntry(text);
  if (/^[1-9][0-9]{0,9}$/.test(text) && TAXON_TYPE.test(type)) return taxonomyEntry(text);
  return undefined;
}

/** The CSS class of a type's highlight (its index in the page's list of types). */
const typeClass = (index: number): string => (index < TYPE_STYLES ? `t${index}` : 'tx');

function collect(sources: readonly ViewerSource[], length: number): { keys: MentionKey[]; types: string[] } {
  const types: string[] = [];
  const typeIndex = new Map<string, number>();
  const byKey = new Map<string, MentionKey>();
  sources.forEach((source, s) => {
    for (const m of source.mentions) {
      const start = Math.max(0, Math.floor(m.start));
      const end = Math.min(length, Math.floor(m.end));
      if (!(end > start)) continue;
      const type = m.type ?? UNTYPED;
      let t = typeIndex.get(type);
      if (t === undefined) {
        t = types.length;
        types.push(type);
        typeIndex.set(type, t);
      }
      const id = `${start}\u0000${end}\u0000${type}`;
      let key = byKey.get(id);
      if (!key) {
        key = { start, end, text: m.text, type: t, sources: [], ids: new Map() };
        const link = mentionLink(m.text, type);
        if (link) key.link = link;
        byKey.set(id, key);
      }
      if (!key.sources.includes(s)) key.sources.push(s);
      for (const id of m.ids ?? []) {
        const by = key.ids.get(id) ?? key.ids.set(id, []).get(id)!;
        if (!by.includes(s)) by.push(s);
      }
    }
  });
  const keys = [...byKey.values()].sort((a, b) => a.start - b.start || a.end - b.end || a.type - b.type);
  return { keys, types };
}

/** The class of a segment covered by these mentions, given which sources are shown. */
function segmentClass(covering: readonly number[], keys: readonly MentionKey[], shown: readonly boolean[]): string {
  const types = new Set<number>();
  for (const k of covering) if (keys[k].sources.some((s) => shown[s])) types.add(keys[k].type);
  if (types.size === 0) return 'ann off';
  return types.size === 1 ? `ann ${typeClass([...types][0])}` : 'ann tmix';
}

export interface ViewerParts {
  /** The text with its marks. */
  text: SafeHtml;
  /** The data block the script reads: sources, types, mentions. */
  data: SafeHtml;
  types: string[];
  /** Distinct mentions per type index, over every source. */
  typeCounts: number[];
  marks: number;
}

/** JSON inside a <script type="application/json">: nothing in it may close the element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The ids of a mention for the panel: `[id, href, database, sources]` each, `href` null for
 * a namespace without a link (an unknown one is shown as text).
 */
function idsData(ids: ReadonlyMap<string, number[]>): Array<[string, string | null, string | null, number[]]> {
  return [...ids].map(([id, sources]) => {
    const { href, database } = conceptIdLink(id);
    return [id, href ?? null, database ?? null, sources];
  });
}

export function buildViewer(text: string, sources: readonly ViewerSource[]): ViewerParts {
  const chars = Array.from(text);
  const { keys, types } = collect(sources, chars.length);
  const shown = sources.map((s) => s.shown);
  // Sweep the boundaries: at each, the mentions covering the next stretch of text.
  const starts = new Map<number, number[]>();
  const ends = new Map<number, number[]>();
  keys.forEach((k, i) => {
    (starts.get(k.start) ?? starts.set(k.start, []).get(k.start)!).push(i);
    (ends.get(k.end) ?? ends.set(k.end, []).get(k.end)!).push(i);
  });
  const boundaries = [...new Set([0, chars.length, ...starts.keys(), ...ends.keys()])].sort((a, b) => a - b);
  const active = new Set<number>();
  const parts: string[] = [];
  let marks = 0;
  let tabStop = false;
  for (let b = 0; b < boundaries.length - 1; b++) {
    const at = boundaries[b];
    for (const k of ends.get(at) ?? []) active.delete(k);
    for (const k of starts.get(at) ?? []) active.add(k);
    const segment = html`${chars.slice(at, boundaries[b + 1]).join('')}`.value;
    if (active.size === 0) {
      parts.push(segment);
      continue;
    }
    const covering = [...active].sort((x, y) => x - y);
    const cls = segmentClass(covering, keys, shown);
    const on = cls !== 'ann off';
    // One tab stop for the whole text (roving tabindex): the first mark shown takes it.
    const tabindex = on && !tabStop ? '0' : '-1';
    if (on) tabStop = true;
    parts.push(`<mark class="${cls}" data-m="${covering.join(' ')}"${on ? ' role="button"' : ''} tabindex="${tabindex}">${segment}</mark>`);
    marks++;
  }
  const typeCounts = types.map((_, t) => keys.filter((k) => k.type === t).length);
  const data = {
    sources: sources.map((s) => ({ label: s.label, consensus: s.consensus === true })),
    types,
    mentions: keys.map((k) => [k.start, k.end, k.type, k.sources, k.text, k.link ?? null, idsData(k.ids)]),
  };
  return {
    text: raw(parts.join('')),
    data: raw(`<script type="application/json" data-viewer-data>${scriptJson(data)}</script>`),
    types,
    typeCounts,
    marks,
  };
}

/** Which servers (and the consensus) to show: a checkbox each, and a button to show that one only. */
export function sourceToggles(sources: readonly ViewerSource[]): SafeHtml {
  const items = sources.map((s, i) => {
    const id = `viewer-source-${i}`;
    const n = s.mentions.length;
    return html`<li><span class="check"><input type="checkbox" id="${id}" data-viewer-source="${i}"${s.shown ? html` checked` : ''}><label for="${id}">${s.label} <span class="muted">(${n} mention${n === 1 ? '' : 's'})</span></label></span> <button type="button" class="small secondary" data-viewer-only="${i}" aria-label="Show only ${s.label}">only</button></li>`;
  });
  return html`<fieldset class="viewer-sources"><legend>Show the mentions of</legend><ul>${items}</ul>
<div class="buttons"><button type="button" class="small secondary" data-viewer-all>All servers</button></div></fieldset>`;
}

/** The key of the colours: each type's highlight as it looks in the text, named, with its count. */
export function typeLegend(types: readonly string[], counts: readonly number[]): SafeHtml {
  if (types.length === 0) return html``;
  const items = types.map(
    (t, i) => html`<li><span class="ann ${typeClass(i)} swatch">${t}</span> <span class="muted">${counts[i]} distinct</span></li>`,
  );
  const mixed =
    types.length > 1
      ? html`<li><span class="ann tmix swatch">types differ</span> <span class="muted">servers gave this text different types</span></li>`
      : '';
  return html`<ul class="type-legend" aria-label="Entity types: the colour and underline of each">${join([...items, mixed])}</ul>`;
}
