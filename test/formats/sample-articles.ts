// Shared test articles: texts with characters outside the BMP (so code-point and UTF-16
// offsets differ), CR LF, markup characters, and answers from two servers.

import type { ExportArticle } from '../../src/formats/common.ts';
import type { CorefResult } from '../../src/families/coref/types.ts';
import type { MentionItem } from '../../src/families/mention/types.ts';

/** Code-point span of the n-th occurrence of `needle` in `text`. */
export function spanOf(text: string, needle: string, occurrence = 1): { start: number; end: number; text: string } {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence} times`);
  }
  const start = [...text.slice(0, at)].length;
  return { start, end: start + [...needle].length, text: needle };
}

export const TEXT_A =
  'Binding of 😀 p53 to MDM2\n\nThe 𝛼-actinin protein binds p53 in cells.\r\nIt forms a complex & more <tags>.\n\n\nIt binds MDM2 (𝛽2) too.\n\n';
export const TEXT_B = 'Short 𝐴 text with IL-2, without paragraphs.';

export const mentionsA: MentionItem[] = [
  { ...spanOf(TEXT_A, 'p53'), type: 'Protein', confidence: 0.9 },
  { ...spanOf(TEXT_A, '𝛼-actinin'), type: 'Protein', rank: 2, section: 'abstract' },
  { ...spanOf(TEXT_A, 'MDM2', 2), type: 'Protein' },
  { ...spanOf(TEXT_A, 'complex'), type: 'Complex', confidence: 0.25 },
];

export const corefA: CorefResult = {
  expressions: [
    { id: 'T10', ...spanOf(TEXT_A, 'The 𝛼-actinin protein'), min: { ...spanOf(TEXT_A, 'protein') } },
    { id: 'T11', ...spanOf(TEXT_A, 'It', 1) },
    { id: 'T12', ...spanOf(TEXT_A, 'It', 2) },
  ],
  links: [
    { id: 'R1', anaphor: 'T11', antecedent: 'T10', proteins: ['T1'] },
    { id: 'R2', anaphor: 'T12', antecedent: 'T11' },
  ],
};

export const articles: ExportArticle[] = [
  {
    id: 'PMC001',
    text: TEXT_A,
    answers: [
      { server: 'server-1', result: { MENTION: mentionsA, COREF: corefA } },
      { server: 'server 2 <"&">', result: { MENTION: [{ ...spanOf(TEXT_A, 'MDM2', 1) }, { ...spanOf(TEXT_A, '𝛽2'), type: 'Protein' }] } },
      { server: 'server-3', result: { MENTION: [] } },
    ],
  },
  {
    id: 'PMC002',
    text: TEXT_B,
    answers: [{ server: 'server-1', result: { MENTION: [{ ...spanOf(TEXT_B, 'IL-2'), type: 'Protein' }] } }],
  },
];

// A text for the tools' readers: mentions that cross LF, CR LF and U+2028, a TAB inside a
// mention, characters outside the BMP, a mention that starts with a line break, nested
// mentions and a crossing overlap; types are AnEM classes, which evalbio.pl knows.
export const TEXT_C =
  'Cells of the left\nventricle and the\r\nheart wall.\nA\tTAB inside liver\tlobules and 𝛼-cells (𝛽2 niche) of the\u2028pancreas. Nested: bone marrow stromal cells die.\n';

export const mentionsC: MentionItem[] = [
  { ...spanOf(TEXT_C, 'left\nventricle'), type: 'Organ' },
  { ...spanOf(TEXT_C, '\nventricle'), type: 'Organ' },
  { ...spanOf(TEXT_C, 'the\r\nheart wall'), type: 'Multi-tissue_structure' },
  { ...spanOf(TEXT_C, 'heart'), type: 'Organ' },
  { ...spanOf(TEXT_C, 'liver\tlobules'), type: 'Tissue' },
  { ...spanOf(TEXT_C, '𝛼-cells'), type: 'Cell' },
  { ...spanOf(TEXT_C, '𝛽2 niche'), type: 'Cellular_component' },
  { ...spanOf(TEXT_C, 'the\u2028pancreas'), type: 'Organ' },
  { ...spanOf(TEXT_C, 'bone marrow stromal cells'), type: 'Cell' },
  { ...spanOf(TEXT_C, 'bone marrow'), type: 'Tissue' },
  { ...spanOf(TEXT_C, 'marrow stromal'), type: 'Cell' },
];

/** The mentions of mentionsC that BIO cannot hold: each overlaps a longer one. */
export const overlappedC = [mentionsC[1], mentionsC[3], mentionsC[9], mentionsC[10]];
