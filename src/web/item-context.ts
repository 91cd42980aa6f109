// An item of a list that is about spans of the article text (a REL relation: its two
// mentions) shown in its context: the text from the first span to the last, each span
// highlighted and named (`<mark>` with its label after it, and in its title for a pointer),
// so the item reads the same by mouse, touch, keyboard or screen reader, without any
// script. A long stretch between two spans is cut to its ends around an ellipsis.

import { CodePointText } from '../shared/code-points.ts';
import { html, type SafeHtml } from './html.ts';

/** Code points of context kept on either side of a cut, and before/after the spans. */
const CONTEXT = 40;

export function itemContext(text: string, marks: ReadonlyArray<{ start: number; end: number; label: string }>): SafeHtml {
  const cps = new CodePointText(text);
  const valid = marks
    .filter((m) => m.start >= 0 && m.start < m.end && m.end <= cps.length)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  if (valid.length === 0) return html``;
  const plain = (from: number, to: number): SafeHtml | string => {
    if (to - from <= 2 * CONTEXT) return cps.slice(from, to);
    return html`${cps.slice(from, from + CONTEXT)}<span class="muted"> … </span>${cps.slice(to - CONTEXT, to)}`;
  };
  const parts: Array<SafeHtml | string> = [];
  const first = valid[0].start;
  const lead = Math.max(0, first - 20);
  if (lead > 0) parts.push('…');
  parts.push(cps.slice(lead, first));
  let at = first;
  for (const m of valid) {
    // Overlapping spans: the later one starts where the earlier ended.
    const start = Math.max(m.start, at);
    if (start > at) parts.push(plain(at, start));
    if (m.end > start)
      parts.push(
        html`<mark class="item-arg" title="${m.label}">${cps.slice(start, m.end)}</mark><sub class="item-arg-label">${m.label}</sub>`,
      );
    at = Math.max(at, m.end);
  }
  const tail = Math.min(cps.length, at + 20);
  parts.push(cps.slice(at, tail));
  if (tail < cps.length) parts.push('…');
  return html`<span class="item-context">${parts}</span>`;
}
