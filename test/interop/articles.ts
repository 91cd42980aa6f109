// The six kinds of article of the interop matrix, and what a server that counts offsets in
// a given unit answers for them (the servers look for the same four names; see stacks.ts).
import { textAsSent } from '../../src/articles/input.ts';
import type { OffsetUnit } from './stacks.ts';

export const NAMES = ['BRCA1', 'p53', '𝛼-synuclein', 'Müller'];

export interface MatrixArticle {
  id: string;
  kind: string;
  /** As loaded into the challenge. */
  raw: string;
}

function longArticle(): string {
  const lines = ['A long article', ''];
  for (let i = 1, length = 0; length < 200_000; i++) {
    const line =
      i % 25 === 0
        ? `Paragraph ${i}: BRCA1 binds p53 in yeast.`
        : `Paragraph ${i} says nothing of interest about anything at all, at length.`;
    lines.push(line);
    length += line.length + 1;
  }
  lines.push('The end: p53.');
  return lines.join('\n');
}

export const MATRIX_ARTICLES: MatrixArticle[] = [
  { id: 'ascii', kind: 'ASCII', raw: 'BRCA1 interacts with p53 in yeast. The p53 protein binds BRCA1 (P38398).' },
  { id: 'non-bmp', kind: 'non-BMP', raw: '𝛼-synuclein binds BRCA1 😀 and p53; the 𝔊ene BRCA1 too.' },
  { id: 'accents', kind: 'accents only', raw: "Müller cells: naïve BRCA1 binds p53 in Ménière's disease; Müller again." },
  { id: 'long', kind: '200 KB', raw: longArticle() },
  {
    id: 'xml-crlf',
    kind: 'XML specials, control characters, CR LF',
    raw: 'a < b && c > d "q" \'s\' ]]> &amp; <p>\r\nBRCA1 binds p53\u0001\u0007 here.\r\nLast line\rp53 end\u0000\r\n',
  },
  { id: 'one', kind: 'one character', raw: 'p' },
];

export interface ExpectedMention {
  offset: number;
  mention: string;
}

/** What a server counting in `unit` finds in the text it was sent (the servers' loop, in TypeScript). */
export function mentionsCountedIn(raw: string, unit: OffsetUnit): ExpectedMention[] {
  const text = textAsSent(raw);
  const found: ExpectedMention[] = [];
  for (const name of NAMES) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      const before = text.slice(0, at);
      const offset = unit === 'UTF-16 units' ? at : unit === 'UTF-8 bytes' ? Buffer.byteLength(before) : [...before].length;
      found.push({ offset, mention: name });
    }
  }
  return found;
}

export const isRelevant = (raw: string): boolean => /binds|interacts/.test(textAsSent(raw));
