// The HTML escaper every page and plot is built with (the code-point cutting of the
// article text is tested with the annotation viewer, viewer.test.ts).
import { describe, expect, it } from 'vitest';
import { escapeHtml, fmt, html, join, raw } from '../../src/web/html.ts';

describe('html tagged template', () => {
  it('escapes the five special characters in text and attribute values', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    const name = '"><script>alert(1)</script>';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });

  it('does not escape nested html or raw markup twice', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(html`<p>${inner}</p>`.value).toBe('<p><b>a &amp; b</b></p>');
    expect(html`${raw('<br>')}`.value).toBe('<br>');
  });

  it('renders arrays, numbers and nothing for null, undefined, false and non-finite numbers', () => {
    expect(html`<ul>${['<1>', html`<li>2</li>`]}</ul>`.value).toBe('<ul>&lt;1&gt;<li>2</li></ul>');
    expect(html`${0}|${null}|${undefined}|${false}|${Number.NaN}|${2.5}`.value).toBe('0|||||2.5');
    expect(join(['a', '<b>'], ', ').value).toBe('a, &lt;b&gt;');
  });

  it('formats figures with a dash when missing', () => {
    expect(fmt(0.5)).toBe('0.500');
    expect(fmt(null)).toBe('—');
    expect(fmt(Number.POSITIVE_INFINITY)).toBe('—');
  });
});
