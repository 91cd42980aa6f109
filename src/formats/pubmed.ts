// PubMed and MEDLINE XML: `PubmedArticleSet` (efetch answers, the annual baseline and the
// daily update files) and `MedlineCitationSet` (MEDLINE files before 2017), read as a
// stream with saxes (a conforming non-validating parser: no DTD is read or fetched), so a
// 30,000-citation baseline file never stands in memory whole. Each citation becomes one
// article: its id the PMID, its text the title, a line feed, then the abstract.
//
// Choices (README.md in this folder, "PubMed"):
// - The PMID is the `PMID` child of `MedlineCitation` (or of a book's `BookDocument`); the
//   PMIDs of comments, corrections and references deeper down are not the citation's.
// - The title is `Article/ArticleTitle` as given (a translated title in brackets stays as
//   PubMed writes it; `VernacularTitle` is not used); a book without one has its
//   `Book/BookTitle`.
// - The abstract is the `AbstractText` elements of `Abstract` (not `OtherAbstract`, not the
//   `CopyrightInformation`), joined by one space. One with a `Label` is written
//   "LABEL: text", the label in capitals: so PubTator writes structured abstracts (checked
//   on the real PubTator files of this repository's fixtures — BC5CDR and tmVar, e.g.
//   "|a|BACKGROUND: … METHODS: … RESULTS: … CONCLUSIONS: …" — where the labels stand in
//   capitals followed by ": " and the sections are joined by one space; tmVar's "METHOD:"
//   shows it writes the Label, not the NlmCategory "METHODS").
// - Inline markup (`i`, `b`, `u`, `sup`, `sub`, MathML…) is reduced to its text; runs of
//   XML white space (space, TAB, CR, LF) become one space and the ends are trimmed, as
//   the text of a title or a section is one line in PubTator.
// - Sections: `title` from 0 over the title, `abstract` after the line feed over the
//   abstract — what BioC title/abstract passages and PubTator documents give. A citation
//   without an abstract is its title alone (one section).
// - `DeleteCitation` (update files) lists PMIDs PubMed withdrew: reported as a deletion
//   event, in file order, so the caller decides (the import drops them from the run).
// - A citation without a PMID, or with neither title nor abstract, is a failure of that
//   citation; malformed XML, a wrong root or a DOCTYPE declaring entities fails the file.

import { lazyPackage } from '../shared/lazy-package.ts';
import type { ArticleSection } from './common.ts';
import { FormatError } from './common.ts';

const saxes = lazyPackage<typeof import('saxes')>('saxes');

export interface PubmedCitation {
  pmid: string;
  text: string;
  sections: ArticleSection[];
}

/** What a PubMed file holds, in file order. */
export type PubmedEvent =
  | { kind: 'citation'; citation: PubmedCitation }
  | { kind: 'deleted'; pmids: string[] }
  /** A citation that cannot be an article: `pmid` when it has one, else `-`. */
  | { kind: 'failure'; pmid: string; reason: string };

const PUBMED_ROOTS = ['PubmedArticleSet', 'MedlineCitationSet'];
/** Elements whose `PMID`, title and `Abstract` children make a citation. */
const CITATION_ELEMENTS = new Set(['MedlineCitation', 'BookDocument']);

const oneLine = (s: string) => s.replace(/[ \t\r\n]+/g, ' ').trim();

/** The article of one citation: title, LF, abstract (sections `title`, `abstract`). */
function pubmedArticle(pmid: string, title: string, abstractParts: readonly string[]): PubmedCitation {
  const abstract = abstractParts.filter((p) => p !== '').join(' ');
  const titleLength = [...title].length;
  const sections: ArticleSection[] = [];
  if (title !== '') sections.push({ offset: 0, length: titleLength, name: 'title' });
  if (abstract === '') return { pmid, text: title, sections };
  sections.push({ offset: titleLength + 1, length: [...abstract].length, name: 'abstract' });
  return { pmid, text: `${title}\n${abstract}`, sections };
}

/** The citation being read: what its elements gave so far. */
interface OpenCitation {
  depth: number;
  pmid: string;
  title: string;
  bookTitle: string;
  abstract: string[];
}

/**
 * A push parser: `write` chunks of the file's text (any split, as they come from a stream),
 * take the events each write completed with `drain`, `close` at the end. Memory holds the
 * citation being read, never the file.
 */
export class PubmedParser {
  private readonly parser;
  private readonly stack: string[] = [];
  private events: PubmedEvent[] = [];
  private citation?: OpenCitation;
  /** Where text is being collected: the element's depth and what to do with the text. */
  private collect?: { depth: number; text: string; done: (text: string) => void };
  private deleted?: string[];
  private root?: string;
  /** Whether a chunk with more than white space was written: only the first one is checked for "<". */
  private started = false;
  /** Citations completed, and the PMID of the last one (named when the file breaks off). */
  completed = 0;
  lastPmid?: string;

  constructor() {
    this.parser = new (saxes().SaxesParser)({ position: true });
    this.parser.on('doctype', (doctype) => {
      if (/<!ENTITY/i.test(doctype))
        throw new FormatError('pubmed', 'the DOCTYPE declares entities; DTD processing is disabled, so such documents are refused');
    });
    this.parser.on('opentag', (tag) => this.open(tag.name, tag.attributes as Record<string, string>));
    this.parser.on('closetag', () => this.closeElement());
    const text = (t: string) => {
      if (this.collect) this.collect.text += t;
    };
    this.parser.on('text', text);
    this.parser.on('cdata', text);
  }

  private open(name: string, attributes: Record<string, string>): void {
    const parent = this.stack[this.stack.length - 1];
    const grandparent = this.stack[this.stack.length - 2];
    this.stack.push(name);
    const depth = this.stack.length;
    if (depth === 1) {
      if (!PUBMED_ROOTS.includes(name))
        throw new FormatError('pubmed', `the root element is <${name}>; PubMed XML has <PubmedArticleSet> or <MedlineCitationSet>`);
      this.root = name;
      return;
    }
    if (this.collect) return; // markup inside a title or a section: its text is collected
    if (CITATION_ELEMENTS.has(name) && !this.citation) {
      this.citation = { depth, pmid: '', title: '', bookTitle: '', abstract: [] };
      return;
    }
    if (name === 'DeleteCitation' && depth === 2) this.deleted = [];
    const c = this.citation;
    if (name === 'PMID' && this.deleted && parent === 'DeleteCitation') this.startText(depth, (t) => this.deleted!.push(t));
    if (!c) return;
    const inCitation = depth - c.depth;
    if (name === 'PMID' && inCitation === 1) this.startText(depth, (t) => (c.pmid = t));
    else if (name === 'ArticleTitle' && (inCitation === 1 || (inCitation === 2 && parent === 'Article')))
      this.startText(depth, (t) => (c.title = t));
    else if (name === 'BookTitle' && inCitation === 2 && parent === 'Book') this.startText(depth, (t) => (c.bookTitle = t));
    else if (name === 'AbstractText' && parent === 'Abstract' && (inCitation === 2 || (inCitation === 3 && grandparent === 'Article'))) {
      const label = oneLine(attributes.Label ?? '').toUpperCase();
      this.startText(depth, (t) => c.abstract.push(label === '' ? t : t === '' ? `${label}:` : `${label}: ${t}`));
    }
  }

  private startText(depth: number, done: (text: string) => void): void {
    this.collect = { depth, text: '', done };
  }

  private closeElement(): void {
    const depth = this.stack.length;
    const name = this.stack.pop();
    if (this.collect?.depth === depth) {
      this.collect.done(oneLine(this.collect.text));
      this.collect = undefined;
    }
    if (this.citation?.depth === depth) this.finishCitation(this.citation);
    if (name === 'DeleteCitation' && depth === 2 && this.deleted) {
      this.events.push({ kind: 'deleted', pmids: this.deleted });
      this.deleted = undefined;
    }
  }

  private finishCitation(c: OpenCitation): void {
    this.citation = undefined;
    const title = c.title !== '' ? c.title : c.bookTitle;
    if (c.pmid === '') {
      const after = this.lastPmid === undefined ? 'the first citation' : `the citation after PMID ${this.lastPmid}`;
      this.events.push({ kind: 'failure', pmid: '-', reason: `${after} has no PMID` });
      return;
    }
    this.lastPmid = c.pmid;
    this.completed += 1;
    if (title === '' && c.abstract.every((p) => p === ''))
      this.events.push({ kind: 'failure', pmid: c.pmid, reason: 'the citation has neither a title nor an abstract' });
    else this.events.push({ kind: 'citation', citation: pubmedArticle(c.pmid, title, c.abstract) });
  }

  private wrap(err: unknown): never {
    if (err instanceof FormatError) throw err;
    throw new FormatError('pubmed', `malformed XML: ${(err as Error).message}`);
  }

  /** Feeds the next piece of the text; malformed XML throws a FormatError. */
  write(chunk: string): this {
    if (!this.started && /[^\s\uFEFF]/.test(chunk)) {
      this.started = true;
      if (!/^\uFEFF?\s*</.test(chunk)) throw new FormatError('pubmed', 'the input is not XML (it does not start with "<")');
    }
    try {
      this.parser.write(chunk);
    } catch (err) {
      this.wrap(err);
    }
    return this;
  }

  /** The events completed since the last drain. */
  drain(): PubmedEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** The end of the file: an unclosed element or no root element throws. */
  close(): PubmedEvent[] {
    try {
      this.parser.close();
    } catch (err) {
      this.wrap(err);
    }
    if (this.root === undefined) throw new FormatError('pubmed', 'the document has no root element');
    return this.drain();
  }
}

/** Every event of a whole PubMed text (the article route's `pubmed` field). */
export function readPubmedXml(xml: string): PubmedEvent[] {
  const parser = new PubmedParser().write(xml);
  return [...parser.drain(), ...parser.close()];
}

/** Whether a text (the start of a file is enough) is PubMed XML: its root element. */
export function isPubmedXml(start: string): boolean {
  const prolog = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<([A-Za-z_][\w.:-]*)/;
  const root = prolog.exec(start)?.[1];
  return root !== undefined && PUBMED_ROOTS.includes(root);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Citations as PubMed XML that reads back to the same articles: what `metaserver import`
 * sends for each citation (`{id, pubmed}`), so the article is stored as the route stores
 * PubMed XML. The abstract is one `AbstractText` holding the labelled sections as written.
 */
export function writePubmedXml(citations: readonly PubmedCitation[]): string {
  const one = (c: PubmedCitation) => {
    const title = c.sections.find((s) => s.name === 'title');
    const abstract = c.sections.find((s) => s.name === 'abstract');
    const cps = [...c.text];
    const part = (s: ArticleSection | undefined) => (s ? escapeXml(cps.slice(s.offset, s.offset + s.length).join('')) : '');
    const abstractXml = abstract ? `<Abstract><AbstractText>${part(abstract)}</AbstractText></Abstract>` : '';
    return `<PubmedArticle><MedlineCitation><PMID>${escapeXml(c.pmid)}</PMID><Article><ArticleTitle>${part(title)}</ArticleTitle>${abstractXml}</Article></MedlineCitation></PubmedArticle>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>${citations.map(one).join('')}</PubmedArticleSet>\n`;
}

/**
 * Which version of each PMID a run keeps, over its files in the order given: the last one
 * seen wins, a `DeleteCitation` drops the PMID (a later citation of it brings it back).
 * Holds one number per PMID, never a text, so the import's first pass can plan a file of
 * any size; `key` says where a version stands (file and position), the second pass asks
 * `keeps` for each.
 */
export class PubmedRun {
  private readonly last = new Map<string, number>();
  private readonly deletedPmids = new Set<string>();
  /** Versions read again later (their earlier versions are not loaded). */
  superseded = 0;

  cite(pmid: string, key: number): void {
    if (this.last.has(pmid)) this.superseded += 1;
    this.last.set(pmid, key);
    this.deletedPmids.delete(pmid);
  }

  delete(pmids: readonly string[]): void {
    for (const pmid of pmids) {
      this.last.delete(pmid);
      this.deletedPmids.add(pmid);
    }
  }

  keeps(pmid: string, key: number): boolean {
    return this.last.get(pmid) === key;
  }

  has(pmid: string): boolean {
    return this.last.has(pmid);
  }

  get size(): number {
    return this.last.size;
  }

  /** PMIDs deleted and not cited again afterwards. */
  get deleted(): string[] {
    return [...this.deletedPmids];
  }
}

/** A whole PubMed text as a run: the citations kept (last version, deletions dropped), the failures and the deletions. */
export function readPubmedRun(xml: string): {
  citations: PubmedCitation[];
  failures: Array<{ document: string; reason: string }>;
  deleted: string[];
} {
  const events = readPubmedXml(xml);
  const run = new PubmedRun();
  events.forEach((e, i) => {
    if (e.kind === 'citation') run.cite(e.citation.pmid, i);
    else if (e.kind === 'deleted') run.delete(e.pmids);
  });
  const citations: PubmedCitation[] = [];
  const failures: Array<{ document: string; reason: string }> = [];
  events.forEach((e, i) => {
    if (e.kind === 'citation' && run.keeps(e.citation.pmid, i)) citations.push(e.citation);
    else if (e.kind === 'failure') failures.push({ document: e.pmid, reason: e.reason });
  });
  return { citations, failures, deleted: run.deleted };
}
