// The HTML escaper every page and plot is built with, and the code-point highlighter.
import { describe, expect, it } from 'vitest';
import { escapeHtml, fmt, html, join, raw } from '../../src/web/html.ts';
import { agreementLevel, highlightMentions } from '../../src/web/highlight.ts';

describe('html tagged template', () => {
  it('escapes the five special characters in text and attribute values', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    const name = '"><script>alert(1)</script>';
    expect(html`<p title="${name}">${name}</p>`.value).toBe('<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
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

describe('mention highlighting', () => {
  // 𝛼 is one code point and two UTF-16 units: BRCA1 is at code points 8-13, UTF-16 units 9-14.
  const text = 'x 𝛼 and BRCA1 <TP53>';

  it('cuts the text at code-point offsets', () => {
    const out = highlightMentions(text, [{ name: 's1', mentions: [{ start: 8, end: 13 }] }]).value;
    expect(out).toBe('x 𝛼 and <mark class="agree-4" data-agree="1" title="1 of 1 server: s1">BRCA1</mark> &lt;TP53&gt;');
  });

  it('splits overlapping mentions by the servers that agree and escapes the text', () => {
    const out = highlightMentions(text, [
      { name: 's1', mentions: [{ start: 8, end: 13 }, { start: 15, end: 19 }] },
      { name: '<s2>', mentions: [{ start: 11, end: 13 }] },
    ]).value;
    expect(out).toContain('<mark class="agree-2" data-agree="1" title="1 of 2 servers: s1">BRC</mark>');
    expect(out).toContain('<mark class="agree-4" data-agree="2" title="2 of 2 servers: s1, &lt;s2&gt;">A1</mark>');
    expect(out).toContain('&lt;<mark class="agree-2" data-agree="1" title="1 of 2 servers: s1">TP53</mark>&gt;');
  });

  it('ignores spans outside the text and leaves a text without mentions as it is', () => {
    expect(highlightMentions('ab', [{ name: 's', mentions: [{ start: 5, end: 9 }] }]).value).toBe('ab');
    expect(highlightMentions('', []).value).toBe('');
  });

  it('maps agreement to four colour levels', () => {
    expect([0, 1, 2, 3, 4].map((n) => agreementLevel(n, 4))).toEqual([0, 1, 2, 3, 4]);
    expect(agreementLevel(1, 10)).toBe(1);
    expect(agreementLevel(10, 10)).toBe(4);
  });
});
