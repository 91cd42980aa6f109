// Worked COREF examples: our own small texts in BioNLP-ST 2011 standoff, built by phrase so
// that every offset is right. d1 is shaped like the task paper's figure; d2 holds chains
// whose proteins sit at different levels; d3 a link with two antecedents.

/** Standoff helpers for one text. */
export function standoff(text: string) {
  /** `start end` of `phrase`, looked up inside `context` when the phrase alone is ambiguous. */
  const span = (phrase: string, context = phrase): string => {
    const at = text.indexOf(context);
    if (at < 0) throw new Error(`no "${context}"`);
    const start = at + context.indexOf(phrase);
    return `${start} ${start + phrase.length}`;
  };
  /** An expression line, with its minimal boundary `head` (its last occurrence in the phrase) when given. */
  const exp = (id: string, phrase: string, head?: string, context = phrase): string => {
    const location = span(phrase, context);
    if (!head) return `${id}\tExp ${location}\t${phrase}`;
    const headStart = Number(location.split(' ')[0]) + phrase.lastIndexOf(head);
    return `${id}\tExp ${location}\t${phrase}\t${headStart} ${headStart + head.length}\t${head}`;
  };
  const protein = (id: string, name: string, context = name): string => `${id}\tProtein ${span(name, context)}\t${name}`;
  return { span, exp, protein };
}

export const lines = (...rows: string[]): string => rows.join('\n') + '\n';

// d1: a two-protein antecedent (T28 holds T4, T5), an antecedent without a given protein
// (T27), and a chain T33 → T32 → T31 whose end holds T10.
export const TEXT =
  'We studied the NFkB heterodimer complex. The dimer of RelA and NFKB1, which enters the nucleus, binds DNA. ' +
  'This complex is active. The factor RelA leaves the nucleus; export of this transcription factor needs it.';
const d1 = standoff(TEXT);
export const exp = d1.exp;
export const span = d1.span;

export const A1 = lines(d1.protein('T4', 'RelA'), d1.protein('T5', 'NFKB1'), d1.protein('T10', 'RelA', 'The factor RelA'));

/** The gold's seven expressions, also used to build responses. */
export const GOLD_EXPRESSIONS = [
  exp('T27', 'the NFkB heterodimer complex', 'complex'),
  exp('T28', 'The dimer of RelA and NFKB1'),
  exp('T29', 'which'),
  exp('T30', 'This complex', 'complex'),
  exp('T31', 'The factor RelA'),
  exp('T32', 'this transcription factor', 'factor'),
  exp('T33', 'it', undefined, 'needs it'),
];

export const GOLD_A2 = lines(
  ...GOLD_EXPRESSIONS,
  'R1\tCoref Anaphora:T29 Antecedent:T28 [T5, T4]',
  'R2\tCoref Anaphora:T30 Antecedent:T27',
  'R3\tCoref Anaphora:T32 Antecedent:T31 [T10]',
  'R4\tCoref Anaphora:T33 Antecedent:T32',
);

/** The response of the hand-worked example: partial boundaries, a skipped intermediate antecedent, a missed head. */
export const PARTIAL_RESPONSE_A2 = lines(
  exp('T101', 'which'),
  exp('T102', 'The dimer of RelA and NFKB1'),
  exp('T103', 'transcription factor'),
  exp('T104', 'The factor RelA'),
  exp('T105', 'it', undefined, 'needs it'),
  exp('T106', 'NFkB heterodimer complex'),
  exp('T107', 'This'),
  'R1\tCoref Anaphora:T101 Antecedent:T102',
  'R2\tCoref Anaphora:T103 Antecedent:T104',
  'R3\tCoref Anaphora:T105 Antecedent:T104',
  'R4\tCoref Anaphora:T107 Antecedent:T106',
);

// d2: "a heterodimer of p50 and p65" is an anaphor that holds two proteins itself; the chain
// it → the p65 subunit (1 protein) → The complex of p50 and p65 (2) ends with the most;
// the chain it → the p53 protein (1) → p53 (1) is a tie, which the later level wins.
export const TEXT2 =
  'NF-kappa B, a heterodimer of p50 and p65, binds DNA. The complex of p50 and p65 is stable; ' +
  'the p65 subunit is phosphorylated and it enters the nucleus. p53 is induced; the p53 protein accumulates and it arrests growth.';
export const d2 = standoff(TEXT2);

export const A1_2 = lines(
  d2.protein('T1', 'p50', 'p50 and p65,'),
  d2.protein('T2', 'p65', 'p65,'),
  d2.protein('T3', 'p50', 'p50 and p65 is'),
  d2.protein('T4', 'p65', 'p65 is'),
  d2.protein('T5', 'p65', 'p65 subunit'),
  d2.protein('T6', 'p53', 'p53 is'),
  d2.protein('T7', 'p53', 'p53 protein'),
);

export const D2_EXPRESSIONS = {
  T11: d2.exp('T11', 'NF-kappa B'),
  T12: d2.exp('T12', 'a heterodimer of p50 and p65', 'heterodimer'),
  T13: d2.exp('T13', 'The complex of p50 and p65', 'complex'),
  T14: d2.exp('T14', 'the p65 subunit', 'subunit'),
  T15: d2.exp('T15', 'it', undefined, 'it enters'),
  T16: d2.exp('T16', 'p53', undefined, 'p53 is'),
  T17: d2.exp('T17', 'the p53 protein', 'protein'),
  T18: d2.exp('T18', 'it', undefined, 'it arrests'),
};

export const GOLD2_A2 = lines(
  ...Object.values(D2_EXPRESSIONS),
  'R1\tCoref Anaphora:T12 Antecedent:T11',
  'R2\tCoref Anaphora:T14 Antecedent:T13 [T3, T4]',
  'R3\tCoref Anaphora:T15 Antecedent:T14',
  'R4\tCoref Anaphora:T17 Antecedent:T16 [T6]',
  'R5\tCoref Anaphora:T18 Antecedent:T17',
);

// d3: "they" refers to two proteins at once, written as one link with two antecedents.
export const TEXT3 = 'Both p50 and p65 bind DNA; they dimerize.';
export const d3 = standoff(TEXT3);
export const A1_3 = lines(d3.protein('T1', 'p50'), d3.protein('T2', 'p65'));
export const GOLD3_A2 = lines(
  d3.exp('T3', 'p50'),
  d3.exp('T4', 'p65'),
  d3.exp('T5', 'they'),
  'R1\tCoref Anaphora:T5 Antecedent:T3 Antecedent2:T4 [T1, T2]',
);

// d4: an appositive anaphor that holds two proteins points at "NF-kappa B", which is itself
// an anaphor of "The p65 protein" (one protein) and the antecedent of "it".
export const TEXT4 = 'The p65 protein was purified. NF-kappa B, a heterodimer of p50 and p65, binds DNA, and it enters the nucleus.';
export const d4 = standoff(TEXT4);
export const A1_4 = lines(d4.protein('T1', 'p65', 'p65 protein'), d4.protein('T2', 'p50'), d4.protein('T3', 'p65', 'p65,'));
export const GOLD4_A2 = lines(
  d4.exp('T4', 'The p65 protein', 'protein'),
  d4.exp('T5', 'NF-kappa B'),
  d4.exp('T6', 'a heterodimer of p50 and p65', 'heterodimer'),
  d4.exp('T7', 'it', undefined, 'it enters'),
  'R1\tCoref Anaphora:T6 Antecedent:T5',
  'R2\tCoref Anaphora:T5 Antecedent:T4 [T1]',
  'R3\tCoref Anaphora:T7 Antecedent:T5',
);
