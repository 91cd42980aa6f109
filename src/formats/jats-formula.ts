// The text of a JATS formula (`inline-formula`, `disp-formula`, or math standing alone),
// so that a sentence holding one reads whole ("arranged as a graph G = (V, E). The edge
// set…", not "arranged as a graph . The edge set…").
//
// A formula may carry several forms of itself (inside `alternatives` or side by side); one
// is read, in this order of preference:
//   1. MathML: the text of its token elements (mi, mo, mn, mtext, ms) in document order,
//      each trimmed as MathML trims it, joined with nothing between (an `mspace` is a
//      space) — what a reader sees, in reading order (`p<0.05`, `Ra2` for a subscripted
//      and squared R), the same whether the MathML was pretty-printed or not. Annotations
//      inside `semantics` (a TeX copy) are skipped.
//   2. TeX (`tex-math`): the formula's own source; the LaTeX document PMC wraps it in
//      (\documentclass … \begin{document} … \end{document}) and its $ or \[ \] delimiters
//      are removed.
//   3. `alt-text`: the publisher's description in words.
//   4. None of these (a formula given only as an image): `[formula]`, so the sentence shows
//      where something stood rather than closing up around a hole.
// A display formula's label ("(1)") is left out, and the formula is set off by spaces;
// the text read is trimmed.
import { childElements, isElement, type XmlElement } from './xml-tree.ts';

/** What stands for a formula that has no text form at all. */
const FORMULA_WITHOUT_TEXT = '[formula]';

const FORMULA = new Set(['inline-formula', 'disp-formula']);
const MATH = new Set(['math', 'tex-math']);
/** MathML children that are not the formula as shown. */
const MATHML_SKIPPED = new Set(['annotation', 'annotation-xml']);

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

export function isFormula(element: XmlElement): boolean {
  return FORMULA.has(element.name) || MATH.has(localName(element.name));
}

/** MathML token elements: the characters a formula shows. */
const TOKENS = new Set(['mi', 'mo', 'mn', 'mtext', 'ms']);

/** The tokens' text, each trimmed (MathML trims token content), joined; white space between elements is layout only. */
function mathmlText(element: XmlElement): string {
  let out = '';
  for (const child of childElements(element)) {
    const name = localName(child.name);
    if (TOKENS.has(name)) out += plainText(child).trim();
    else if (name === 'mspace') out += ' ';
    else if (!MATHML_SKIPPED.has(name)) out += mathmlText(child);
  }
  return out;
}

function plainText(element: XmlElement): string {
  return element.children.map((c) => (isElement(c) ? plainText(c) : c)).join('');
}

function texText(element: XmlElement): string {
  let tex = plainText(element);
  const body = /\\begin\{document\}([\s\S]*?)\\end\{document\}/.exec(tex);
  if (body) tex = body[1];
  return tex
    .trim()
    .replace(/^\$\$?([\s\S]*?)\$\$?$/, '$1')
    .replace(/^\\\[([\s\S]*?)\\\]$/, '$1')
    .trim();
}

/** The first element (depth first) whose local name is among `names`, not looking into nested formulas. */
function firstOf(element: XmlElement, names: ReadonlySet<string>): XmlElement | undefined {
  for (const child of childElements(element)) {
    if (names.has(localName(child.name))) return child;
    if (FORMULA.has(child.name)) continue;
    const found = firstOf(child, names);
    if (found) return found;
  }
  return undefined;
}

const MATHML = new Set(['math']);
const TEX = new Set(['tex-math']);
const ALT = new Set(['alt-text']);

/** The formula's text by the order of preference above; never empty. */
export function formulaText(element: XmlElement): string {
  const own = localName(element.name);
  let text: string;
  if (own === 'math') text = mathmlText(element);
  else if (own === 'tex-math') text = texText(element);
  else {
    const mathml = firstOf(element, MATHML);
    const tex = mathml ? undefined : firstOf(element, TEX);
    const alt = mathml || tex ? undefined : firstOf(element, ALT);
    text = mathml ? mathmlText(mathml) : tex ? texText(tex) : alt ? plainText(alt) : '';
  }
  text = text.trim() === '' ? FORMULA_WITHOUT_TEXT : text.trim();
  return element.name === 'disp-formula' ? ` ${text} ` : text;
}
