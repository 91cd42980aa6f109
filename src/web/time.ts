// Timestamps for people: "26 Nov 2026, 22:44:17 UTC" inside a <time datetime="…"> element
// that keeps the exact ISO 8601 instant for machines. Pages are rendered on the server, which
// does not know the reader's time zone, so the zone is always named (UTC).
import { html, type SafeHtml } from './html.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The instant in words, or null for a value that is not a date. */
function timeText(value: string | Date): string | null {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}

/** A `<time>` element for the instant; "—" for a missing or unreadable one. */
export function timeElement(value: string | Date | null | undefined): SafeHtml | string {
  if (value === null || value === undefined) return '—';
  const text = timeText(value);
  return text === null ? '—' : html`<time datetime="${new Date(value).toISOString()}">${text}</time>`;
}
