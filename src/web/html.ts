// A tiny HTML builder: the `html` tagged template escapes every interpolated value unless
// it is already SafeHtml (the result of another `html` call or of `raw`). Pages and SVG
// plots are built from it, so text from teams, servers and articles can never become markup.

/** Markup that is already safe to emit as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for quoted attribute values (HTML and SVG). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Trusted markup, passed through unescaped: use only for strings built by this code. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** What an interpolation may be: null, undefined and false render nothing; arrays are concatenated. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Joins fragments with a separator (itself escaped unless SafeHtml). */
export function join(items: readonly HtmlValue[], separator: HtmlValue = ''): SafeHtml {
  const sep = render(separator);
  return new SafeHtml(items.map(render).join(sep));
}

/** A number as shown in tables: fixed decimals, or an em dash when missing. */
export function fmt(value: unknown, digits = 3): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '—';
}
