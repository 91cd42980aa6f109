// The JATS conversion on five real PMC articles, checked against a parser no one here
// wrote: Python's xml.etree lists every paragraph (body, tables' and figures' captions and
// footnotes, supplementary material, back sections); each must arrive in the converted
// text as many times as the article has it, in the article's order, with no markup or
// entity left.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jatsToText } from '../../src/formats/jats.ts';

const DIR = fileURLToPath(new URL('../fixtures/jats/pmc/', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./jats_paragraphs.py', import.meta.url));
const ARTICLES = readdirSync(DIR)
  .filter((f) => f.endsWith('.nxml'))
  .sort();

const collapse = (s: string) => s.replace(/\s+/g, ' ');

describe('real PMC articles through the JATS conversion', () => {
  it('has the five articles', () => {
    expect(ARTICLES).toHaveLength(5);
  });

  it.each(ARTICLES)('%s: every paragraph once per occurrence, in order, no markup left', (file) => {
    const path = `${DIR}${file}`;
    const expected = JSON.parse(execFileSync('python3', [SCRIPT, path]).toString()) as string[];
    expect(expected.length).toBeGreaterThan(15);
    const text = collapse(jatsToText(readFileSync(path, 'utf8')).text);

    const problems: string[] = [];
    let at = 0;
    for (const p of expected) {
      const found = text.indexOf(p, at);
      if (found < 0) problems.push(`${text.includes(p) ? 'out of order' : 'missing'}: ${p.slice(0, 100)}`);
      else at = found + p.length;
    }
    for (const p of new Set(expected)) {
      const times = expected.filter((q) => q === p).length;
      const got = text.split(p).length - 1;
      if (p.length > 30 && got !== times) problems.push(`${got} times instead of ${times}: ${p.slice(0, 100)}`);
    }
    expect(problems).toEqual([]);
    expect(text).not.toMatch(/<\/?[a-z][\w:-]*[\s>/]/i);
    expect(text).not.toMatch(/&(#x?[0-9a-f]+|[a-z]+);/i);
  });
});
