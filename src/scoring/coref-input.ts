// Parsers for BioNLP-ST 2011 COREF standoff: `.a1` holds the given protein mentions,
// `.a2` the coreference expressions (with an optional minimal boundary, the head) and
// the Coref links between an anaphor and its antecedent.

import { ScoringInputError } from './errors.ts';

export interface Span {
  start: number;
  end: number;
}

export interface Protein extends Span {
  id: string;
  text: string;
}

export interface Expression extends Span {
  id: string;
  text: string;
  /** The minimal boundary; absent means only an exact match counts. */
  min?: Span;
}

export interface CorefLinkRecord {
  id: string;
  anaphor: string;
  antecedent: string;
  line: number;
}

export interface CorefAnnotation {
  expressions: Map<string, Expression>;
  links: CorefLinkRecord[];
}

const SPAN = /^(\S+) (\d+) (\d+)$/;

function readSpan(raw: string, file: string | undefined, line: number): { type: string; start: number; end: number } {
  const match = SPAN.exec(raw.trim());
  if (!match) {
    throw new ScoringInputError(`malformed span "${raw}"`, { file, line, hint: 'write T<n><TAB>Type start end<TAB>text' });
  }
  const start = Number(match[2]);
  const end = Number(match[3]);
  if (end < start) throw new ScoringInputError(`span ${start}–${end} ends before it starts`, { file, line });
  return { type: match[1], start, end };
}

function lines(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/\r$/, ''));
}

/** The given proteins of one document (every text-bound annotation of the `.a1` file). */
export function parseA1(text: string, options: { file?: string } = {}): Map<string, Protein> {
  const proteins = new Map<string, Protein>();
  lines(text).forEach((line, i) => {
    if (!line.startsWith('T')) return;
    const fields = line.split('\t');
    if (fields.length < 2) throw new ScoringInputError(`malformed protein line "${line}"`, { file: options.file, line: i + 1 });
    const { start, end } = readSpan(fields[1], options.file, i + 1);
    proteins.set(fields[0], { id: fields[0], start, end, text: fields[2] ?? '' });
  });
  return proteins;
}

/**
 * Expressions (`T27<TAB>Exp 179 222<TAB>text[<TAB>215 222<TAB>head]`) and links
 * (`R1<TAB>Coref Anaphora:T29 Antecedent:T28 [T5, T4]`; `Ana`/`Ant` also accepted). The
 * bracketed protein list is informative only and is not read: span containment decides.
 */
export function parseA2(text: string, options: { file?: string } = {}): CorefAnnotation {
  const { file } = options;
  const expressions = new Map<string, Expression>();
  const links: CorefLinkRecord[] = [];
  lines(text).forEach((line, i) => {
    const lineNo = i + 1;
    const fields = line.split('\t');
    if (line.startsWith('T')) {
      if (fields.length < 2) throw new ScoringInputError(`malformed expression line "${line}"`, { file, line: lineNo });
      const { start, end } = readSpan(fields[1], file, lineNo);
      const expression: Expression = { id: fields[0], start, end, text: fields[2] ?? '' };
      if (fields.length >= 4 && fields[3].trim() !== '') {
        const min = /^(\d+) (\d+)$/.exec(fields[3].trim());
        if (!min) throw new ScoringInputError(`malformed minimal boundary "${fields[3]}"`, { file, line: lineNo, hint: 'write it as "start end"' });
        expression.min = { start: Number(min[1]), end: Number(min[2]) };
        if (expression.min.start < start || expression.min.end > end || expression.min.end < expression.min.start) {
          throw new ScoringInputError(`minimal boundary ${min[1]}–${min[2]} is not inside ${start}–${end}`, { file, line: lineNo });
        }
      }
      expressions.set(expression.id, expression);
    } else if (line.startsWith('R') && fields.length >= 2 && fields[1].startsWith('Coref')) {
      const args = fields[1].replace(/\[.*\]/, '').trim().split(/\s+/).slice(1);
      let anaphor: string | undefined;
      let antecedent: string | undefined;
      for (const arg of args) {
        const [role, id] = arg.split(':');
        if (role === 'Anaphora' || role === 'Ana') anaphor = id;
        else if (role === 'Antecedent' || role === 'Ant') antecedent = id;
      }
      if (!anaphor || !antecedent) {
        throw new ScoringInputError(`Coref link "${line}" lacks an anaphor or an antecedent`, { file, line: lineNo, hint: 'write R<n><TAB>Coref Anaphora:T<a> Antecedent:T<b>' });
      }
      links.push({ id: fields[0], anaphor, antecedent, line: lineNo });
    }
  });
  return { expressions, links };
}
