// Parsers for BioNLP-ST 2011 COREF standoff: `.a1` holds the given protein mentions,
// `.a2` the coreference expressions (with an optional minimal boundary, the head) and
// the Coref links between an anaphor and its antecedents.

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
  /**
   * The annotation type of the `.a2` line. Only `Exp` lines are coreference expressions;
   * others (a `Protein` copied into the `.a2`) are kept for round trips but not scored.
   * Absent (answers built in code) means `Exp`.
   */
  type?: string;
}

export interface CorefLinkRecord {
  id: string;
  anaphor: string;
  /** The first antecedent (`Antecedent:`), as in a one-antecedent link. */
  antecedent: string;
  /** Every antecedent in the order written: `Antecedent:`, then `Antecedent2:`, `Antecedent3:`… */
  antecedents: string[];
  /** The bracketed protein list, when the line has one (informative only: containment decides). */
  proteins?: string[];
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

function parseExpression(fields: string[], file: string | undefined, line: number): Expression {
  const { type, start, end } = readSpan(fields[1], file, line);
  const expression: Expression = { id: fields[0], start, end, text: fields[2] ?? '', type };
  if (fields.length >= 4 && fields[3].trim() !== '') {
    const min = /^(\d+) (\d+)$/.exec(fields[3].trim());
    if (!min) throw new ScoringInputError(`malformed minimal boundary "${fields[3]}"`, { file, line, hint: 'write it as "start end"' });
    expression.min = { start: Number(min[1]), end: Number(min[2]) };
    if (expression.min.start < start || expression.min.end > end || expression.min.end < expression.min.start) {
      throw new ScoringInputError(`minimal boundary ${min[1]}–${min[2]} is not inside ${start}–${end}`, { file, line });
    }
  }
  return expression;
}

// `Anaphora:T29`, `Antecedent:T28`, `Antecedent2:T27` (BioNLP-ST numbers repeated roles);
// the task paper abbreviates them `Ana:`/`Ant:`.
const ARGUMENT = /^(Anaphora|Ana|Antecedent|Ant)(\d*):(\S+)$/;
const HINT = 'write R<n><TAB>Coref Anaphora:T<a> Antecedent:T<b>[ Antecedent2:T<c>…][ [T<p>, …]]';

/**
 * One link line, in either layout the task's tools write: the bracketed protein list after
 * a space (`R1<TAB>Coref Anaphora:T29 Antecedent:T28 [T5, T4]`) or after a TAB.
 */
function parseLink(line: string, file: string | undefined, lineNo: number): CorefLinkRecord {
  const tab = line.indexOf('\t');
  let body = line.slice(tab + 1).replace(/\t/g, ' ');
  let proteins: string[] | undefined;
  const bracket = /\[([^\]]*)\]\s*$/.exec(body);
  if (bracket) {
    proteins = bracket[1]
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    body = body.slice(0, bracket.index);
  }
  const anaphors: string[] = [];
  const antecedents: { n: number; id: string }[] = [];
  for (const arg of body.trim().split(/\s+/).slice(1)) {
    const match = ARGUMENT.exec(arg);
    if (!match) throw new ScoringInputError(`Coref link has an unexpected argument "${arg}"`, { file, line: lineNo, hint: HINT });
    if (match[1].startsWith('Ana')) {
      anaphors.push(match[3]);
      continue;
    }
    const n = match[2] === '' ? 1 : Number(match[2]);
    if (antecedents.some((a) => a.n === n)) {
      throw new ScoringInputError(`Coref link "${line}" has two antecedents numbered ${n}`, { file, line: lineNo, hint: HINT });
    }
    antecedents.push({ n, id: match[3] });
  }
  if (anaphors.length !== 1 || antecedents.length === 0) {
    const what = anaphors.length > 1 ? 'has more than one anaphor' : 'lacks an anaphor or an antecedent';
    throw new ScoringInputError(`Coref link "${line}" ${what}`, { file, line: lineNo, hint: HINT });
  }
  // The role numbers, not the order on the line, put the antecedents in order.
  const ordered = antecedents.sort((a, b) => a.n - b.n).map((a) => a.id);
  const record: CorefLinkRecord = {
    id: line.slice(0, tab),
    anaphor: anaphors[0],
    antecedent: ordered[0],
    antecedents: ordered,
    line: lineNo,
  };
  if (proteins) record.proteins = proteins;
  return record;
}

/**
 * Expressions (`T27<TAB>Exp 179 222<TAB>text[<TAB>215 222<TAB>head]`) and Coref links
 * (`Ana`/`Ant` also accepted; see parseLink). Other relation lines are skipped.
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
      const expression = parseExpression(fields, file, lineNo);
      expressions.set(expression.id, expression);
    } else if (line.startsWith('R') && fields.length >= 2 && /^Coref\b/.test(fields[1])) {
      links.push(parseLink(line, file, lineNo));
    }
  });
  return { expressions, links };
}
