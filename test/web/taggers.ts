// Two loopback taggers for the reading pages' tests, with answers that differ on purpose:
// "alpha" tags proteins (words with an uppercase letter and a digit, accessions included),
// species words and taxids; "beta" tags the same proteins but calls TP53 a gene, and
// nothing else. Offsets count code points, counted once along the text (200 KB articles).
import type { XmlRpcValue } from '../../src/xmlrpc/codec.ts';

const WORD = /[A-Za-z0-9]+/g;
const ACCESSION = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})$/;
const SPECIES = new Set(['human', 'yeast']);

export interface TaggedWord {
  offset: number;
  word: string;
}

/** Every ASCII word with its code-point offset. */
export function words(text: string): TaggedWord[] {
  const out: TaggedWord[] = [];
  let units = 0;
  let points = 0;
  for (const match of text.matchAll(WORD)) {
    // Count the code points between the previous position and this match only.
    for (const _ of text.slice(units, match.index)) points++;
    out.push({ offset: points, word: match[0] });
    points += match[0].length;
    units = match.index + match[0].length;
  }
  return out;
}

const isProtein = (w: string) => /[A-Z]/.test(w) && /[0-9]/.test(w) && !/^[0-9]+$/.test(w);

export function alpha(text: string): XmlRpcValue {
  const all = words(text);
  const mentions = all.flatMap(({ offset, word }): XmlRpcValue[] => {
    if (isProtein(word)) return [{ offset, mention: word, type: 'protein', confidence: 0.9 }];
    if (SPECIES.has(word) || /^[1-9][0-9]{3,6}$/.test(word)) return [{ offset, mention: word, type: 'species', confidence: 0.8 }];
    return [];
  });
  const accessions = [...new Set(all.map((w) => w.word).filter((w) => ACCESSION.test(w)))];
  return {
    mentions,
    normalizations: accessions.map((dbid, i) => ({ dbid, dbname: 'UniProt', rank: i + 1, confidence: 1 / (i + 2) })),
    taxons: all.some((w) => w.word === 'human') ? [{ taxid: 9606, rank: 1, confidence: 0.9 }] : [],
  };
}

export function beta(text: string): XmlRpcValue {
  const mentions = words(text).flatMap(({ offset, word }): XmlRpcValue[] =>
    isProtein(word) && !ACCESSION.test(word)
      ? [{ offset, mention: word, type: word === 'TP53' ? 'gene' : 'protein', confidence: 0.7 }]
      : [],
  );
  return { mentions, normalizations: [], taxons: [] };
}
