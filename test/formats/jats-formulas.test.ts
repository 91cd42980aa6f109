// Formulas through the JATS conversion: on three real PLOS ONE articles (MathML, MathML
// beside images, images only; test/fixtures/jats/formulas/README.md), every formula's text
// arrives, in order, paragraph by paragraph, as Python's own XML parser reads it by the
// rule src/formats/README.md states; and on small hand-made articles, each form a formula
// can take and the order of preference between them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jatsToText } from '../../src/formats/jats.ts';

const DIR = fileURLToPath(new URL('../fixtures/jats/formulas/', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./jats_paragraphs.py', import.meta.url));
const ARTICLES = readdirSync(DIR)
  .filter((f) => f.endsWith('.nxml'))
  .sort();
const collapse = (s: string) => s.replace(/\s+/g, ' ');

/** What Python finds: the paragraphs holding formulas, with each formula's text. */
function pythonFormulas(path: string): Array<{ paragraph: string; formulas: string[] }> {
  return JSON.parse(execFileSync('python3', [SCRIPT, path, '--formulas']).toString()) as Array<{ paragraph: string; formulas: string[] }>;
}

describe('formulas of real PLOS articles', () => {
  it('has the three articles', () => {
    expect(ARTICLES).toEqual(['pone.0008915.nxml', 'pone.0111971.nxml', 'pone.0117014.nxml']);
  });

  it.each(ARTICLES)("%s: every paragraph with formulas arrives whole, its formulas' text in order", (file) => {
    const path = `${DIR}${file}`;
    const expected = pythonFormulas(path);
    const text = collapse(jatsToText(readFileSync(path, 'utf8')).text);
    expect(expected.length).toBeGreaterThan(5);
    const problems: string[] = [];
    let at = 0;
    for (const { paragraph, formulas } of expected) {
      const found = text.indexOf(paragraph, at);
      if (found < 0) {
        problems.push(`${text.includes(paragraph) ? 'out of order' : 'missing'}: ${paragraph.slice(0, 120)}`);
        continue;
      }
      // Each formula's text where it stands in the paragraph, in order.
      const converted = text.slice(found, found + paragraph.length);
      let inside = 0;
      for (const f of formulas) {
        const where = converted.indexOf(f, inside);
        if (where < 0) problems.push(`formula ${JSON.stringify(f)} not in order in: ${paragraph.slice(0, 80)}`);
        else inside = where + f.length;
      }
      at = found + paragraph.length;
    }
    expect(problems).toEqual([]);
    // The paragraphs without formulas arrive too, in order (a formula that broke its
    // paragraph's layout would show here).
    const all = JSON.parse(execFileSync('python3', [SCRIPT, path]).toString()) as string[];
    let next = 0;
    const lost = all.filter((p) => {
      const found = text.indexOf(p, next);
      if (found >= 0) next = found + p.length;
      return found < 0;
    });
    expect(lost).toEqual([]);
    const formulaCount = expected.reduce((n, p) => n + p.formulas.length, 0);
    expect(formulaCount).toBeGreaterThan(10);
    expect(text).not.toMatch(/<\/?(mml:)?(math|mi|mo|mn|msub|mrow)[\s>/]/);
  });

  it('MathML formulas read as their tokens (pone.0117014: "the adjusted coefficient of determination (Ra2)")', () => {
    const text = jatsToText(readFileSync(`${DIR}pone.0117014.nxml`, 'utf8')).text;
    expect(text).toContain('adjusted coefficient of determination (Ra2), a different cross validation strategy');
    expect(text).not.toContain('[formula]');
  });

  it('a formula given only as an image stands as [formula], once per formula (pone.0008915: 283)', () => {
    const path = `${DIR}pone.0008915.nxml`;
    const text = jatsToText(readFileSync(path, 'utf8')).text;
    const xml = readFileSync(path, 'utf8');
    const formulas = (xml.match(/<(inline|disp)-formula[\s>]/g) ?? []).length;
    expect(formulas).toBe(283);
    // Formulas in the body and back, where the paragraphs checked above are; the abstract has none.
    expect(text.split('[formula]').length - 1).toBe(formulas);
  });
});

const article = (body: string) => `<?xml version="1.0"?>
<article xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink">
<front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front>
<body><p>${body}</p></body></article>`;
const converted = (body: string) => jatsToText(article(body)).text.split('\n\n')[1];

describe('the forms of a formula and the order of preference', () => {
  it('MathML: token text in order, each token trimmed, pretty-printing ignored, TeX annotation skipped', () => {
    expect(
      converted(
        'arranged as a graph <inline-formula><mml:math><mml:mi>G</mml:mi><mml:mo>=</mml:mo><mml:mo>(</mml:mo><mml:mi>V</mml:mi><mml:mo>,</mml:mo><mml:mi>E</mml:mi><mml:mo>)</mml:mo></mml:math></inline-formula>. The edge set',
      ),
    ).toBe('arranged as a graph G=(V,E). The edge set');
    expect(
      converted(`with <inline-formula><mml:math>
        <mml:semantics><mml:mrow>
          <mml:mi> p </mml:mi>
          <mml:mo>&lt;</mml:mo>
          <mml:mn>0.05</mml:mn>
        </mml:mrow><mml:annotation encoding="TeX">p &lt; 0.05</mml:annotation></mml:semantics>
      </mml:math></inline-formula> throughout`),
    ).toBe('with p<0.05 throughout');
  });

  it('MathML before TeX before alt-text, whatever their order in the file; image only: [formula]', () => {
    const all =
      '<alternatives><tex-math>\\documentclass[12pt]{minimal}\\usepackage{amsmath}\\begin{document}$$K_d$$\\end{document}</tex-math><mml:math><mml:msub><mml:mi>K</mml:mi><mml:mi>d</mml:mi></mml:msub></mml:math><inline-graphic xlink:href="e1.gif"/></alternatives>';
    expect(converted(`a <inline-formula>${all}</inline-formula> of 5 nM`)).toBe('a Kd of 5 nM');
    expect(
      converted(
        'a <inline-formula><alternatives><inline-graphic xlink:href="e1.gif"/><tex-math>\\documentclass[12pt]{minimal}\\begin{document}$K_d$\\end{document}</tex-math></alternatives></inline-formula> of 5 nM',
      ),
    ).toBe('a K_d of 5 nM');
    expect(
      converted(
        'a <inline-formula><alt-text>dissociation constant</alt-text><inline-graphic xlink:href="e1.gif"/></inline-formula> of 5 nM',
      ),
    ).toBe('a dissociation constant of 5 nM');
    expect(converted('a <inline-formula><inline-graphic xlink:href="e1.gif"/></inline-formula> of 5 nM')).toBe('a [formula] of 5 nM');
    expect(converted('bare TeX <tex-math>\\[x^2\\]</tex-math> here')).toBe('bare TeX x^2 here');
  });

  it('a display formula: its text set off by spaces, its label left out; one between paragraphs is a paragraph', () => {
    expect(
      converted(
        'given by<disp-formula id="E1"><label>(1)</label><mml:math><mml:mi>y</mml:mi><mml:mo>=</mml:mo><mml:mn>2</mml:mn></mml:math></disp-formula>where y is',
      ),
    ).toBe('given by y=2 where y is');
    const text = jatsToText(
      `<article xmlns:mml="http://www.w3.org/1998/Math/MathML"><body><sec><title>S</title><p>Before.</p><disp-formula><tex-math>$a+b$</tex-math></disp-formula><p>After.</p></sec></body></article>`,
    ).text;
    expect(text).toBe('S\nBefore.\n\na+b\n\nAfter.');
  });
});
