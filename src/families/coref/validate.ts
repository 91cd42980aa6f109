// COREF: `coref` = a string of BioNLP-ST 2011 standoff lines (nguyen2011, scoring.md):
//   T27<TAB>Exp 179 222<TAB>the NF-kappa B transcription factor complex<TAB>215 222<TAB>complex
//   R1<TAB>Coref Anaphora:T29 Antecedent:T28 [T5, T4]
// Offsets count code points. Issues are placed at `coref[line N]` (1-based lines).

import { describe, type Report } from '../../tasks/checks.ts';
import type { TaskInput } from '../family.ts';
import { offsetHint } from '../../tasks/offset-hint.ts';
import type { CodePointText } from '../../shared/code-points.ts';
import type { CorefExpression, CorefLink, CorefResult } from './types.ts';

const KEY = 'coref';

const EXPRESSION = /^(T\d+)\t(\S+) +(\d+) +(\d+)\t([^\t]*)(?:\t(\d+) +(\d+)\t([^\t]*))?$/;
const LINK = /^(R\d+)\t(\S+)((?: +[A-Za-z]+:\S+)+)\s*(?:\[([^\]]*)\])?\s*$/;
const ROLES: Record<string, 'anaphor' | 'antecedent'> = {
  anaphora: 'anaphor',
  ana: 'anaphor',
  antecedent: 'antecedent',
  ant: 'antecedent',
};

/** Ids of the given proteins (`T4<TAB>Protein 275 278<TAB>p65` lines): they count as defined. */
function givenIds(given: string | undefined): Set<string> {
  const ids = new Set<string>();
  for (const line of (given ?? '').split('\n')) {
    const id = /^(T\S*)\t/.exec(line)?.[1];
    if (id) ids.add(id);
  }
  return ids;
}

const show = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Checks a span against the text; returns its text, or undefined after an error. */
function checkSpan(
  text: CodePointText,
  start: number,
  end: number,
  sent: string,
  path: string,
  what: string,
  report: Report,
): string | undefined {
  if (start >= end) {
    report.error(path, `${what} [${start}, ${end}) is empty or reversed`);
    return undefined;
  }
  if (end > text.length) {
    report.error(
      path,
      `${what} [${start}, ${end}) runs past the end of the text (${text.length} code points)${offsetHint(text, sent, start)}`,
    );
    return undefined;
  }
  const actual = text.slice(start, end);
  if (actual !== sent) {
    report.error(
      path,
      `${what} text ${show(sent)} differs from the text at [${start}, ${end}), which is ${show(actual)} (offsets count Unicode code points)${offsetHint(text, sent, start)}`,
    );
    return undefined;
  }
  return actual;
}

function parseExpression(
  match: RegExpExecArray,
  text: CodePointText,
  path: string,
  report: Report,
): CorefExpression | 'protein' | undefined {
  const [, id, type, s, e, sent, minS, minE, minSent] = match;
  if (type !== 'Exp' && type !== 'Protein') {
    report.error(path, `${id} has type ${show(type)}; COREF expressions are "Exp" (or "Protein" for a given protein)`);
    return undefined;
  }
  const start = Number(s);
  const end = Number(e);
  if (checkSpan(text, start, end, sent, path, id, report) === undefined) return undefined;
  if (type === 'Protein') return 'protein';
  const expression: CorefExpression = { id, start, end, text: sent };
  if (minS !== undefined) {
    const min = { start: Number(minS), end: Number(minE), text: minSent };
    if (min.start < start || min.end > end) {
      report.error(path, `the minimal boundary [${min.start}, ${min.end}) of ${id} lies outside its span [${start}, ${end})`);
      return undefined;
    }
    if (checkSpan(text, min.start, min.end, min.text, path, `the minimal boundary of ${id}`, report) === undefined) return undefined;
    expression.min = min;
  }
  return expression;
}

function parseLink(match: RegExpExecArray, path: string, report: Report): CorefLink | undefined {
  const [, id, type, args, bracket] = match;
  if (type !== 'Coref') {
    report.error(path, `${id} has type ${show(type)}; COREF links are "Coref"`);
    return undefined;
  }
  const roles: Partial<Record<'anaphor' | 'antecedent', string>> = {};
  for (const arg of args.trim().split(/ +/)) {
    const [role, ref] = arg.split(':');
    const name = ROLES[role.toLowerCase()];
    if (!name || roles[name] !== undefined) {
      report.error(path, `${id}: unexpected argument ${show(arg)}; a link has one Anaphora:Tn and one Antecedent:Tm`);
      return undefined;
    }
    roles[name] = ref;
  }
  if (!roles.anaphor || !roles.antecedent) {
    report.error(path, `${id}: a link needs both Anaphora:Tn and Antecedent:Tm`);
    return undefined;
  }
  const link: CorefLink = { id, anaphor: roles.anaphor, antecedent: roles.antecedent };
  if (bracket !== undefined)
    link.proteins = bracket
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
  return link;
}

export function validateCoref(value: unknown, input: TaskInput, report: Report): CorefResult | undefined {
  if (typeof value !== 'string') {
    report.error(KEY, `expected a string of standoff lines, got ${describe(value)}`);
    return undefined;
  }
  const errorsBefore = report.errors.length;
  const expressions: CorefExpression[] = [];
  const links: { link: CorefLink; path: string }[] = [];
  const defined = givenIds(input.given);
  const definedAt = new Map<string, string>();
  value.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const path = `${KEY}[line ${i + 1}]`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      report.warn(path, 'annotator note ignored');
      return;
    }
    const id = line.split('\t', 1)[0];
    if (definedAt.has(id) || (defined.has(id) && id.startsWith('T') && !line.includes('\tProtein '))) {
      report.error(path, `${id} is defined twice (${definedAt.get(id) ?? 'among the given proteins'}); ids must be unique`);
      return;
    }
    const expression = EXPRESSION.exec(line);
    const link = expression ? null : LINK.exec(line);
    if (!expression && !link) {
      report.error(
        path,
        `${show(line)} does not parse: expected "Tn<TAB>Exp START END<TAB>TEXT[<TAB>START END<TAB>TEXT]" or "Rn<TAB>Coref Anaphora:Tn Antecedent:Tm [Tp, …]"`,
      );
      return;
    }
    definedAt.set(id, path);
    if (expression) {
      const parsed = parseExpression(expression, input.codePoints, path, report);
      if (parsed === 'protein') defined.add(id);
      else if (parsed) {
        expressions.push(parsed);
        defined.add(id);
      }
    } else if (link) {
      const parsed = parseLink(link, path, report);
      if (parsed) links.push({ link: parsed, path });
    }
  });
  // Links may name expressions defined further down, so they are checked at the end. A
  // T line that failed its own checks still counts as defined: one error per mistake.
  const kept: CorefLink[] = [];
  for (const { link, path } of links) {
    const named = [link.anaphor, link.antecedent, ...(link.proteins ?? [])];
    const undefinedIds = named.filter((ref) => !defined.has(ref) && !(ref.startsWith('T') && definedAt.has(ref)));
    if (undefinedIds.length > 0) {
      report.error(
        path,
        `${link.id} names ${undefinedIds.join(', ')}, defined neither by a T line of the answer nor among the given proteins`,
      );
    } else if (link.anaphor === link.antecedent) {
      report.warn(path, `${link.id} links ${link.anaphor} to itself; dropped`);
    } else kept.push(link);
  }
  if (report.errors.length > errorsBefore) return undefined;
  return { expressions, links: kept };
}
