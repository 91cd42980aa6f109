// The article text with every mention highlighted and coloured by how many servers agree
// on it (BCMS Fig. 2). Mention offsets count Unicode code points, JavaScript strings UTF-16
// units, so the text is split with Array.from and never indexed with .slice/.substring.
import { html, join, type SafeHtml } from './html.ts';

export interface MentionSpan {
  start: number;
  end: number;
}

export interface ServerMentions {
  name: string;
  mentions: readonly MentionSpan[];
}

/** 1-4, for the colour: the share of the servers with mentions that cover a character. */
export function agreementLevel(count: number, servers: number): number {
  if (count <= 0 || servers <= 0) return 0;
  return Math.max(1, Math.min(4, Math.ceil((count / servers) * 4)));
}

/**
 * Splits the text into runs of code points covered by the same set of servers; covered runs
 * become <mark> elements naming the servers. Overlapping mentions of one server count once.
 */
export function highlightMentions(text: string, servers: readonly ServerMentions[]): SafeHtml {
  const chars = Array.from(text);
  // The set of servers (by index) covering each code point.
  const covering: Array<Set<number> | undefined> = new Array(chars.length);
  servers.forEach((server, index) => {
    for (const m of server.mentions) {
      const start = Math.max(0, Math.floor(m.start));
      const end = Math.min(chars.length, Math.floor(m.end));
      for (let i = start; i < end; i++) (covering[i] ??= new Set()).add(index);
    }
  });
  // Most characters are uncovered: compare sets only where both positions have one.
  const same = (a: number, b: number): boolean => {
    const sa = covering[a];
    const sb = covering[b];
    if (sa === undefined || sb === undefined) return sa === sb;
    return sa.size === sb.size && [...sa].every((s) => sb.has(s));
  };
  const parts: SafeHtml[] = [];
  let runStart = 0;
  for (let i = 1; i <= chars.length; i++) {
    if (i < chars.length && same(i, runStart)) continue;
    const segment = chars.slice(runStart, i).join('');
    const who = [...(covering[runStart] ?? [])].sort((a, b) => a - b).map((s) => servers[s]!.name);
    if (who.length === 0) parts.push(html`${segment}`);
    else {
      const level = agreementLevel(who.length, servers.length);
      const label = `${who.length} of ${servers.length} server${servers.length === 1 ? '' : 's'}: ${who.join(', ')}`;
      parts.push(html`<mark class="agree-${level}" data-agree="${who.length}" title="${label}">${segment}</mark>`);
    }
    runStart = i;
  }
  return join(parts);
}

/** The colour key shown under the text. */
export function agreementLegend(servers: number): SafeHtml {
  if (servers === 0) return html`<p class="legend-text">No server has sent mentions for this article yet.</p>`;
  const items = Array.from({ length: servers }, (_, i) => i + 1).map(
    (n) => html`<li><mark class="agree-${agreementLevel(n, servers)}">${n} of ${servers}</mark></li>`,
  );
  return html`<ul class="agreement-legend" aria-label="How many servers agree on a highlighted span">${items}</ul>`;
}
