// An article for the REL sample rule, with its given entities as standoff lines: characters
// outside the BMP and accents before the entities (offsets count code points), a sentence
// break that stops a relation, ASCII case in the cue word, a GENE-N type.
const TEXT = 'Äspirin 😀 INHIBITS COX-2 and activates 𝔊PR1. L-NMMA inhibits iNOS; L-NMMA Activates COX-1.';
const at = (word: string, from = 0): number => Array.from(TEXT.slice(0, TEXT.indexOf(word, from))).length;
const line = (id: string, type: string, word: string, from = 0) =>
  `${id}\t${type} ${at(word, from)} ${at(word, from) + Array.from(word).length}\t${word}`;
const second = TEXT.indexOf('L-NMMA', TEXT.indexOf('L-NMMA') + 1);

export const REL_ARTICLE = {
  text: TEXT,
  given: [
    line('T1', 'CHEMICAL', 'Äspirin'),
    line('T2', 'GENE', 'COX-2'),
    line('T3', 'GENE-N', '𝔊PR1'),
    line('T4', 'CHEMICAL', 'L-NMMA'),
    line('T5', 'GENE', 'iNOS'),
    line('T6', 'CHEMICAL', 'L-NMMA', second),
    line('T7', 'GENE', 'COX-1'),
  ].join('\n'),
};

/** What every sample server answers for it. */
export const REL_EXPECTED = [
  { type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', rank: 1, confidence: 1 / 2 },
  { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3', rank: 2, confidence: 1 / 3 },
  { type: 'INHIBITOR', arg1: 'T4', arg2: 'T5', rank: 3, confidence: 1 / 4 },
  { type: 'INHIBITOR', arg1: 'T4', arg2: 'T7', rank: 4, confidence: 1 / 5 },
  { type: 'ACTIVATOR', arg1: 'T6', arg2: 'T7', rank: 5, confidence: 1 / 6 },
];
