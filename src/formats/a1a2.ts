// BioNLP-ST 2011 standoff for COREF: `.a2` expression lines
//   T27<TAB>Exp 179 222<TAB>the NF-kappa B complex[<TAB>215 222<TAB>complex]
// and link lines
//   R1<TAB>Coref Anaphora:T29 Antecedent:T28[<TAB>[T5, T4]]
// with code-point offsets. The bracketed protein list follows a TAB, not a space: brat
// reads the part before the second TAB as the relation (type and exactly two arguments)
// and keeps the rest as a note, and the official scorer reads that form too. The `.a1` file is the article's `given` string exactly as sent to
// the servers, so it needs no writer; importA1 reads one.
// Import reads the lines with the scoring library's parser and takes span texts from the
// article (the parser keeps offsets, not the minimal boundary's text).
//
// Choice: the bracketed protein list of a link is informative and the scoring parser
// skips it; import reads it here (after a TAB or a space) so that a round trip keeps it.
// An expression's text is one field of one line: a TAB or any character a reader may break
// lines at (as Python's splitlines does) is written as a space; the offsets decide, and
// servers cannot send a TAB or LF in an expression anyway.

import { parseA1, parseA2, ScoringInputError, type Protein } from '../scoring/index.ts';
import { CodePointText } from '../shared/code-points.ts';
import type { CorefExpression, CorefLink, CorefResult } from '../families/coref/types.ts';
import { FormatError, LINE_BREAK } from './common.ts';

const FIELD_BREAKS = new RegExp(`\\t|${LINE_BREAK.source}`, 'g');
const oneLine = (s: string) => s.replace(FIELD_BREAKS, ' ');

export function exportA2(coref: CorefResult): string {
  const lines = coref.expressions.map((e) => {
    const min = e.min ? `\t${e.min.start} ${e.min.end}\t${oneLine(e.min.text)}` : '';
    return `${e.id}\tExp ${e.start} ${e.end}\t${oneLine(e.text)}${min}`;
  });
  for (const link of coref.links) {
    const proteins = link.proteins ? `\t[${link.proteins.join(', ')}]` : '';
    lines.push(`${link.id}\tCoref Anaphora:${link.anaphor} Antecedent:${link.antecedent}${proteins}`);
  }
  return lines.map((l) => `${l}\n`).join('');
}

function wrapped<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ScoringInputError) throw new FormatError('a2', error.message);
    throw error;
  }
}

export function importA2(text: string, a2: string, options: { file?: string } = {}): CorefResult {
  const parsed = wrapped(() => parseA2(a2, options));
  const cp = new CodePointText(text);
  const slice = (start: number, end: number, id: string) => {
    if (end > cp.length)
      throw new FormatError('a2', `${id}: span ${start}–${end} runs past the end of the text (${cp.length} code points)`);
    return cp.slice(start, end);
  };
  const expressions = [...parsed.expressions.values()].map((e): CorefExpression => {
    const expression: CorefExpression = { id: e.id, start: e.start, end: e.end, text: slice(e.start, e.end, e.id) };
    if (e.min) expression.min = { start: e.min.start, end: e.min.end, text: slice(e.min.start, e.min.end, e.id) };
    return expression;
  });
  const brackets = new Map<string, string[]>();
  for (const line of a2.split('\n')) {
    const match = /^(R\S*)\tCoref\b[^[]*\[([^\]]*)\]/.exec(line);
    if (match)
      brackets.set(
        match[1],
        match[2]
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== ''),
      );
  }
  const links = parsed.links.map((l): CorefLink => {
    const link: CorefLink = { id: l.id, anaphor: l.anaphor, antecedent: l.antecedent };
    const proteins = brackets.get(l.id);
    if (proteins) link.proteins = proteins;
    return link;
  });
  return { expressions, links };
}

/** The given proteins of an `.a1` file, in file order. */
export function importA1(a1: string, options: { file?: string } = {}): Protein[] {
  return [...wrapped(() => parseA1(a1, options)).values()];
}
