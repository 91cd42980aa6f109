// JATS / PMC NXML → the BC II.5 plain-text layout (xmlrpc-protocol.md, "Article text"):
//
//   title, blank line, abstract, blank line, then each body section header on its own
//   line followed by its paragraphs, blank lines between blocks; figure and table
//   captions as paragraphs.
//
// Choices where the layout is silent (README.md in this folder repeats them):
// - A section header (its label, if any, then its title) is a line glued to the block that
//   follows it; headers of nested sections stack up the same way.
// - The abstract is the first `abstract` without an `abstract-type` (else the first one);
//   typed extras (graphical, teaser, author summary) are left out.
// - Figures, tables, boxed figures, supplementary material and media contribute "label
//   caption" paragraphs where they stand (also inside a paragraph, which is split around
//   them); a media file's own caption inside supplementary material is a paragraph of its
//   own; table bodies are dropped, each table footnote (`table-wrap-foot`) is a "label
//   text" paragraph after the table's caption. `floats-group` captions follow the body.
// - Back matter: acknowledgements, appendices and supplementary material (with the header
//   of the back section holding it) are kept; references, other footnotes, glossaries,
//   notes and everything else are dropped.
// - A formula (inline or display, or bare math) keeps its text, never leaving a hole in
//   the sentence (formula.ts says which form is read). Other inline markup is dropped and
//   its text kept.
// - Sub-articles and responses (`sub-article`, `response`) are left out.
// - White space is normalised within a paragraph: XML white space (space, TAB, CR, LF)
//   runs become one space; other spaces (NO-BREAK SPACE…) are text and stay.

import { FormatError } from './common.ts';
import { formulaText, isFormula } from './jats-formula.ts';
import { childElements, findDescendant, firstChild, isElement, parseXmlTree, type XmlElement } from './xml-tree.ts';

export interface JatsText {
  text: string;
  title: string;
}

/** Elements that carry no running text of the article. */
const DROPPED = new Set([
  'ref-list',
  'fn',
  'fn-group',
  'graphic',
  'inline-graphic',
  'object-id',
  'table',
  'table-wrap-foot',
  'permissions',
  'alt-text',
  'long-desc',
  'attrib',
  'glossary',
  'notes',
]);

/** Elements that become "label caption" paragraphs. */
const CAPTIONED = new Set(['fig', 'table-wrap', 'supplementary-material', 'chem-struct-wrap', 'fig-group', 'table-wrap-group', 'media']);

/** Block containers whose children are laid out one after another. */
const CONTAINERS = new Set([
  'boxed-text',
  'disp-quote',
  'list',
  'list-item',
  'def-list',
  'def-item',
  'statement',
  'verse-group',
  'app-group',
  'floats-group',
]);

/** Block-level elements that may sit inside a `p` and split it. */
// Display formulas are not among them: they sit inside sentences and are read inline.
const BLOCKS_IN_P = new Set([...CAPTIONED, 'list', 'boxed-text', 'disp-quote', 'statement', 'def-list', 'verse-group']);

const XML_SPACE = /[ \t\r\n]+/g;

function normalise(text: string): string {
  return text.replace(XML_SPACE, ' ').trim();
}

/** The running text of an inline fragment: markup dropped, text kept, formulas as text, notes dropped. */
function inlineText(node: XmlElement | string): string {
  if (typeof node === 'string') return node;
  if (isFormula(node)) return formulaText(node);
  if (DROPPED.has(node.name)) return '';
  if (node.name === 'break') return ' ';
  let out = '';
  for (const child of node.children) out += inlineText(child);
  return out;
}

class Layout {
  private readonly blocks: string[] = [];
  private pendingHeaders: string[] = [];

  header(line: string): void {
    if (line !== '') this.pendingHeaders.push(line);
  }

  paragraph(raw: string): void {
    const text = normalise(raw);
    if (text === '') return;
    this.blocks.push([...this.pendingHeaders, text].join('\n'));
    this.pendingHeaders = [];
  }

  /** A section that ended without a paragraph still shows its header. */
  flushHeaders(): void {
    if (this.pendingHeaders.length > 0) this.blocks.push(this.pendingHeaders.join('\n'));
    this.pendingHeaders = [];
  }

  text(): string {
    this.flushHeaders();
    return this.blocks.join('\n\n');
  }
}

function labelled(element: XmlElement, titleName: string): string {
  const label = firstChild(element, 'label');
  const title = firstChild(element, titleName);
  return normalise([label ? inlineText(label) : '', title ? inlineText(title) : ''].join(' '));
}

/** "label text…" of an element with a label and paragraphs (a caption, a footnote). */
function labelledParagraph(label: XmlElement | undefined, body: XmlElement | undefined, layout: Layout): void {
  const parts: string[] = [];
  if (label) parts.push(inlineText(label));
  if (body) for (const child of childElements(body)) if (child.name !== 'label') parts.push(inlineText(child));
  layout.paragraph(parts.join(' '));
}

/** Table footnotes: each `fn` (also inside an `fn-group`) or loose `p` is a paragraph. */
function tableFootnotes(foot: XmlElement, layout: Layout): void {
  for (const child of childElements(foot)) {
    if (child.name === 'fn') labelledParagraph(firstChild(child, 'label'), child, layout);
    else if (child.name === 'fn-group') tableFootnotes(child, layout);
    else if (child.name === 'p') paragraph(child, layout);
  }
}

function captionParagraph(element: XmlElement, layout: Layout): void {
  labelledParagraph(firstChild(element, 'label'), firstChild(element, 'caption'), layout);
  for (const child of childElements(element)) {
    // Groups hold several figures or tables, each with its own caption; supplementary
    // material holds media with theirs.
    if (CAPTIONED.has(child.name)) captionParagraph(child, layout);
    else if (child.name === 'table-wrap-foot') tableFootnotes(child, layout);
  }
}

/** A `p`, split around any block-level element inside it. */
function paragraph(p: XmlElement, layout: Layout): void {
  let run = '';
  for (const child of p.children) {
    if (isElement(child) && BLOCKS_IN_P.has(child.name)) {
      layout.paragraph(run);
      run = '';
      block(child, layout);
    } else run += inlineText(child);
  }
  layout.paragraph(run);
}

function section(sec: XmlElement, layout: Layout): void {
  // An untitled acknowledgements section still needs a header to tell it from the body.
  const header = labelled(sec, 'title');
  layout.header(header === '' && sec.name === 'ack' ? 'Acknowledgements' : header);
  for (const child of childElements(sec)) {
    if (child.name !== 'title' && child.name !== 'label') block(child, layout);
  }
  layout.flushHeaders();
}

function block(element: XmlElement, layout: Layout): void {
  const name = element.name;
  if (DROPPED.has(name) || name === 'sec-meta') return;
  // A display formula standing between paragraphs is a paragraph of its own.
  if (isFormula(element) || name === 'disp-formula-group') layout.paragraph(inlineText(element));
  else if (name === 'sec' || name === 'app' || name === 'ack') section(element, layout);
  else if (name === 'p' || name === 'def' || name === 'verse-line') paragraph(element, layout);
  else if (name === 'term' || name === 'title') layout.paragraph(inlineText(element));
  else if (CAPTIONED.has(name)) captionParagraph(element, layout);
  else if (CONTAINERS.has(name)) {
    if (name === 'list-item' || name === 'boxed-text') {
      const label = firstChild(element, 'label');
      if (label) layout.header(normalise(inlineText(label)));
    }
    for (const child of childElements(element)) if (child.name !== 'label') block(child, layout);
  }
  // Anything else at block level (unknown or metadata elements) carries no article text.
}

/** Back matter that is article text: acknowledgements, appendices, supplementary material. */
function keptInBack(element: XmlElement): boolean {
  const name = element.name;
  if (name === 'ack' || name === 'app-group' || name === 'app' || name === 'supplementary-material') return true;
  return name === 'sec' && findDescendant(element, 'supplementary-material') !== undefined;
}

/** The `article` of a JATS document (also inside a one-article `pmc-articleset`). */
function articleOf(root: XmlElement): XmlElement {
  if (root.name === 'article') return root;
  if (root.name === 'pmc-articleset') {
    const articles = childElements(root, 'article');
    if (articles.length === 1) return articles[0];
    throw new FormatError('jats', `a pmc-articleset must hold exactly one article here, found ${articles.length}`);
  }
  throw new FormatError('jats', `not a JATS article: the root element is <${root.name}>, expected <article>`);
}

function mainAbstract(meta: XmlElement | undefined): XmlElement | undefined {
  if (!meta) return undefined;
  const abstracts = childElements(meta, 'abstract');
  return abstracts.find((a) => a.attributes['abstract-type'] === undefined) ?? abstracts[0];
}

/** The ids an article gives itself in its `article-meta`: PMC's (normalised to `PMC1234567`) and PubMed's. */
export interface JatsIds {
  pmcid?: string;
  pmid?: string;
}

/**
 * The `article-id`s of the article's own metadata (not of related or sub-articles). PMC
 * writes the PMCID as `pub-id-type="pmc"` with bare digits, newer files as `pmcid` with the
 * prefix; both become `PMC` and the digits as written. A PMID is digits only.
 */
function articleIds(meta: XmlElement | undefined): JatsIds {
  const ids: JatsIds = {};
  for (const element of meta ? childElements(meta, 'article-id') : []) {
    const type = element.attributes['pub-id-type'];
    const value = inlineText(element).trim();
    const pmc = /^(?:PMC)?(\d+)$/i.exec(value);
    if ((type === 'pmc' || type === 'pmcid') && pmc && ids.pmcid === undefined) ids.pmcid = `PMC${pmc[1]}`;
    if (type === 'pmid' && /^\d+$/.test(value) && ids.pmid === undefined) ids.pmid = value;
  }
  return ids;
}

export function jatsToText(xml: string): JatsText {
  const { text, title } = readJatsArticle(xml);
  return { text, title };
}

/** The article's text and title (as `jatsToText`) and the ids it gives itself. */
export function readJatsArticle(xml: string): JatsText & { ids: JatsIds } {
  const article = articleOf(parseXmlTree(xml, 'jats'));
  const front = firstChild(article, 'front');
  const meta = front ? firstChild(front, 'article-meta') : undefined;
  const titleGroup = meta ? firstChild(meta, 'title-group') : undefined;
  const titleElement = titleGroup ? firstChild(titleGroup, 'article-title') : meta ? findDescendant(meta, 'article-title') : undefined;
  const title = titleElement ? normalise(inlineText(titleElement)) : '';

  const layout = new Layout();
  layout.paragraph(title);
  const abstract = mainAbstract(meta);
  if (abstract) {
    for (const child of childElements(abstract)) if (child.name !== 'title' && child.name !== 'label') block(child, layout);
    layout.flushHeaders();
  }
  const body = firstChild(article, 'body');
  if (body) for (const child of childElements(body)) block(child, layout);
  const floats = firstChild(article, 'floats-group');
  if (floats) block(floats, layout);
  const back = firstChild(article, 'back');
  if (back) {
    for (const child of childElements(back)) if (keptInBack(child)) block(child, layout);
  }
  return { text: layout.text(), title, ids: articleIds(meta) };
}
