// A reader of brat standoff that follows brat's own parser (server/src/annotation.py:
// Annotations._parse_ann_lines and TextAnnotations._parse_textbound_annotation) rule by
// rule, so a test can tell whether brat loads an export without a failed line. It covers
// the annotation kinds our exports write (T, R and # lines) and refuses the others loudly.
// Python's behaviour is kept where it matters: lines are split as str.splitlines(keepends)
// splits them, strings are indexed by code point, strip/isspace know Python's white space.
// Written for the tests from brat's documented rules; no brat code is copied.

/** Python's str.isspace() characters. */
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const pyIsSpace = (c: string) => PY_SPACE.test(c);
const pyStrip = (s: string) => {
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  while (a < b && pyIsSpace(cps[a])) a++;
  while (b > a && pyIsSpace(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
};
/** str.split() without arguments: runs of white space, no empty parts. */
const pySplit = (s: string) =>
  pyStrip(s)
    .split(/[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u)
    .filter((p) => p !== '');

/** str.splitlines(keepends=True). */
export function pySplitLines(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  const cps = Array.from(text);
  for (let i = 0; i < cps.length; i++) {
    line += cps[i];
    if (cps[i] === '\r' && cps[i + 1] === '\n') line += cps[++i];
    if (/[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/.test(cps[i])) {
      lines.push(line);
      line = '';
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Python's int() on a decimal string (surrounding white space, sign, underscores between digits). */
function pyInt(s: string): number {
  const t = pyStrip(s);
  if (!/^[+-]?\d+(?:_\d+)*$/.test(t)) throw new LineFailed();
  return Number(t.replace(/_/g, ''));
}

class LineFailed extends Error {}

export interface BratTextBound {
  id: string;
  type: string;
  spans: Array<[number, number]>;
  text: string;
}

export interface BratReading {
  /** 0-based line numbers brat puts in `failed_lines`. */
  failedLines: number[];
  /** What brat's Messager would show (errors and warnings). */
  messages: string[];
  textBounds: BratTextBound[];
  relations: Array<{ id: string; type: string; args: Array<[string, string]>; tail: string }>;
  comments: Array<{ id: string; type: string; target: string; tail: string }>;
}

export interface BratReadOptions {
  /**
   * Read the `.txt` as brat 1.3 on Python 2 does (universal newlines: CR LF and CR become
   * LF); later versions read it as it is.
   */
  universalNewlines?: boolean;
}

/** Reads `.ann` files (several are read in turn, like a `.a1` and a `.a2`) against the document text. */
export function readBrat(txt: string, annFiles: string | string[], options: BratReadOptions = {}): BratReading {
  const docText = Array.from(options.universalNewlines ? txt.replace(/\r\n?/g, '\n') : txt);
  const reading: BratReading = { failedLines: [], messages: [], textBounds: [], relations: [], comments: [] };
  const ids = new Set<string>();
  let lineNo = -1;
  for (const ann of Array.isArray(annFiles) ? annFiles : [annFiles]) {
    for (const line of pySplitLines(ann)) {
      lineNo++;
      try {
        const tab = line.indexOf('\t');
        if (tab < 0) throw new LineFailed();
        const id = line.slice(0, tab);
        const idTail = line.slice(tab + 1);
        const prefix = /^\D*/u.exec(id)![0];
        // brat raises InvalidIdError here, which nothing catches: the document does not load.
        if (prefix === '') throw new Error(`brat would crash on line ${lineNo + 1}: id "${id}" has no prefix`);
        if (ids.has(id) && prefix !== '*') throw new LineFailed();
        if (id !== '*' && !/^([A-Za-z]+|#[A-Za-z]*)([0-9]+)(.*?)$/.test(id)) throw new LineFailed();
        const dataTab = idTail.indexOf('\t');
        const data = dataTab < 0 ? idTail : idTail.slice(0, dataTab);
        const dataTail = dataTab < 0 ? '' : idTail.slice(dataTab);
        switch (prefix[0]) {
          case 'T':
            reading.textBounds.push(textBound(id, data, dataTail, docText, reading.messages));
            break;
          case 'R':
            reading.relations.push(relation(id, data, dataTail, reading.messages));
            break;
          case '#': {
            const parts = pySplit(data);
            if (parts.length !== 2) throw new LineFailed();
            reading.comments.push({ id, type: parts[0], target: parts[1], tail: dataTail });
            break;
          }
          case 'M':
          case 'A':
          case 'N':
          case '*':
          case 'E':
            throw new Error(`this reader does not cover "${prefix[0]}" lines (line ${lineNo + 1})`);
          default:
            throw new LineFailed();
        }
        ids.add(id);
      } catch (error) {
        if (!(error instanceof LineFailed)) throw error;
        reading.failedLines.push(lineNo);
      }
    }
  }
  // brat's post-parse sanity check: every referenced id must be defined.
  for (const r of reading.relations)
    for (const [, ref] of r.args) if (!ids.has(ref)) reading.messages.push(`ID ${ref} not defined, referenced from ${r.id}`);
  for (const c of reading.comments) if (!ids.has(c.target)) reading.messages.push(`ID ${c.target} not defined, referenced from ${c.id}`);
  return reading;
}

function textBound(id: string, data: string, dataTail: string, doc: string[], messages: string[]): BratTextBound {
  const space = data.indexOf(' ');
  if (space < 0) throw new LineFailed();
  const type = data.slice(0, space);
  const spans: Array<[number, number]> = [];
  for (const spanText of data.slice(space + 1).split(';')) {
    const parts = spanText.split(' ');
    // Python's split(' ', 2) unpacked into two names: exactly one space.
    if (parts.length !== 2) throw new LineFailed();
    const endText = parts[1].replace(/[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u, '');
    if (Array.from(endText).some(pyIsSpace)) {
      messages.push(`Error parsing textbound "${id}\t${data}". (Using space instead of tab?)`);
      throw new LineFailed();
    }
    spans.push([pyInt(parts[0]), pyInt(endText)]);
  }
  const seen: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    if (start > end || start < 0 || end > doc.length) throw new LineFailed();
    for (const [os, oe] of seen) if (end >= os && start < oe) throw new LineFailed();
    seen.push([start, end]);
  }
  const spanText = (s: number, e: number) => doc.slice(s, e).join('');
  const spanLength = spans.reduce((n, [s, e]) => n + e - s, 0) + (spans.length - 1);
  const tail = Array.from(dataTail);
  if (pyStrip(dataTail) === '' && spanLength > 0) {
    messages.push(`Text-bound annotation missing text; filling from reference text (${id})`);
    return { id, type, spans, text: spans.map(([s, e]) => spanText(s, e)).join('') };
  }
  if (tail[0] !== '\t') throw new LineFailed();
  if (spanLength > tail.length - 1) throw new LineFailed();
  let text = tail.slice(1, spanLength + 1).join('');
  let rest = tail.slice(spanLength + 1).join('');
  const parts = spans.map(([s, e]) => spanText(s, e));
  const reference = parts.join(' ');
  if (text !== reference) {
    const oldStyle = parts.join('');
    if (text.startsWith(oldStyle)) {
      messages.push(`NOTE: replacing old-style discontinuous annotation text (${id})`);
      text = reference;
      rest = '';
    } else {
      messages.push(`Text-bound annotation text "${text}" does not match marked span(s) text "${reference}" (${id})`);
      throw new LineFailed();
    }
  }
  if (rest !== '' && !pyIsSpace(Array.from(rest)[0])) throw new LineFailed();
  return { id, type, spans, text };
}

function relation(id: string, data: string, dataTail: string, messages: string[]): BratReading['relations'][number] {
  const space = data.indexOf(' ');
  if (space < 0) throw new LineFailed();
  const args = pySplit(data.slice(space)).map((arg) => arg.split(':'));
  if (args.length !== 2) {
    messages.push('Error parsing relation: must have exactly two arguments');
    throw new LineFailed();
  }
  if (args[0][0] === args[1][0]) {
    messages.push('Error parsing relation: arguments must not be identical');
    throw new LineFailed();
  }
  // brat indexes arg[1]: an argument without ":" raises IndexError, which nothing catches.
  if (args.some((a) => a.length < 2)) throw new Error(`brat would crash on relation ${id}: an argument has no ":"`);
  return { id, type: data.slice(0, space), args: args.map((a) => [a[0], a[1]] as [string, string]), tail: dataTail };
}
