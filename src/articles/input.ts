// Article text at the edge: size-checked, XML-illegal characters and carriage returns
// replaced one for one (so offsets do not move), and stored exactly as it will be sent.
import type { BadAnnotations, CorpusDocument } from '../formats/bioc-corpus.ts';
import { FormatError, type ArticleSection } from '../formats/common.ts';
import {
  corpusFormatOf,
  readCorpusFileEach,
  type CorpusAnnotationLeftOut,
  type CorpusFailure,
  type CorpusFormat,
} from '../formats/corpus-file.ts';
import { jatsToText } from '../formats/jats.ts';
import { readPubmedRun } from '../formats/pubmed.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { sanitizeXmlText } from '../xmlrpc/codec.ts';

export interface ArticleInput {
  id?: string;
  text?: string;
  xml?: string;
  given?: string;
}

/**
 * The text as it is stored and sent. Characters XML 1.0 cannot carry become spaces, and no
 * carriage return is sent: every XML parser turns a raw CR or CR LF into LF, and several
 * servers (Python's, xmlrpc-c) send a CR back raw, so a mention spanning one could never
 * match. A CR before a LF becomes a space, a lone CR a LF: one character for one.
 */
export function textAsSent(text: string): string {
  const sanitized = sanitizeXmlText(text);
  return sanitized.includes('\r') ? sanitized.replace(/\r\n?/g, (crlf) => (crlf.length === 2 ? ' \n' : '\n')) : sanitized;
}

function articleText(input: ArticleInput, where: string, maxBytes: number): { text: string; sourceFormat: string } {
  if (input.xml !== undefined && input.text !== undefined) throw badRequest(`${where}: give either text or xml, not both`);
  if (input.xml === undefined && input.text === undefined)
    throw badRequest(`${where}: the article needs a "text" (plain text) or an "xml" (JATS/NXML)`);
  const raw = (input.xml ?? input.text)!;
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > maxBytes)
    throw new ApiError('article_too_large', `${where}: the article has ${bytes} bytes; at most ${maxBytes} are accepted`);
  let text = raw;
  if (input.xml !== undefined) {
    try {
      // The converted text is what is stored, sent and shown: offsets refer to it.
      text = jatsToText(input.xml).text;
    } catch (err) {
      if (err instanceof FormatError) throw new ApiError('invalid_jats', `${where}: the JATS/NXML article cannot be read: ${err.message}`);
      throw err;
    }
  }
  if (text.trim() === '') throw badRequest(`${where}: the article text is empty`);
  const sent = textAsSent(text);
  // Checked after replacing: control characters alone would go out as a blank text.
  if (sent.trim() === '') {
    throw badRequest(
      `${where}: the article text holds only characters XML cannot carry (control characters, U+FFFE, U+FFFF, lone surrogates), which would be sent as spaces`,
    );
  }
  return { text: sent, sourceFormat: input.xml !== undefined ? 'jats' : 'text' };
}

// ── corpora: BioC (XML or JSON) and PubTator files ───────────────────────────────────────

/** What a batch does with documents it cannot load: refuse the whole batch, or load the others. */
export type BadDocuments = 'refuse' | 'skip';

/** A document (or article) left out of a batch, and why. */
export interface LoadFailure {
  file?: string;
  document: string;
  reason: string;
}

export interface CorpusInput {
  /** BioC XML or JSON text, or BioC JSON as a JSON value. */
  bioc?: unknown;
  /** PubTator text. */
  pubtator?: string;
  /** PubMed or MEDLINE XML text (`PubmedArticleSet`, `MedlineCitationSet`): each citation an article, its id the PMID. */
  pubmed?: string;
  /** The file's name, named in every refusal. */
  file?: string;
}

export interface CorpusArticle {
  id: string;
  text: string;
  sourceFormat: 'bioc' | 'pubtator' | 'pubmed';
  /** The document's passages, stored with the article so exports write them back. */
  sections: ArticleSection[];
}

/** The organiser-id rule of the article routes (1–200 characters, no white space, no "/"). */
const ORGANISER_ID = /^[^\s/]{1,200}$/;

/** The corpus fields given: at most one of bioc, pubtator, pubmed. */
function corpusFields(input: CorpusInput): string[] {
  return (['bioc', 'pubtator', 'pubmed'] as const).filter((f) => input[f] !== undefined);
}

/** PubMed XML: the citations kept (the last version of each PMID; DeleteCitation drops one), see formats/pubmed.ts. */
function pubmedDocuments(xml: string, file: string) {
  try {
    const run = readPubmedRun(xml);
    const documents = run.citations.map((c): CorpusDocument => ({
      id: c.pmid,
      text: c.text,
      sections: c.sections,
      annotations: [],
      relations: [],
    }));
    if (documents.length === 0 && run.failures.length === 0 && run.deleted.length === 0)
      throw new FormatError('pubmed', `${file}: the PubMed XML holds no citation`);
    return { documents, failures: run.failures.map((f) => ({ file, ...f })), deleted: run.deleted };
  } catch (err) {
    if (err instanceof FormatError)
      throw new ApiError('invalid_corpus', `${file}: ${err.message}; nothing was loaded`, [{ file, document: null, reason: err.message }]);
    throw err;
  }
}

function corpusDocuments(
  input: CorpusInput,
  badAnnotations: BadAnnotations,
): {
  format: CorpusFormat | 'pubmed';
  file: string;
  documents: CorpusDocument[];
  failures: CorpusFailure[];
  annotationsLeftOut?: CorpusAnnotationLeftOut[];
  deleted?: string[];
} {
  if (corpusFields(input).length > 1) throw badRequest('give one of bioc, pubtator or pubmed, not several');
  if (input.pubmed !== undefined) {
    const file = input.file ?? 'the PubMed XML';
    return { format: 'pubmed', file, ...pubmedDocuments(input.pubmed, file) };
  }
  const isPubTator = input.pubtator !== undefined;
  const file = input.file ?? (isPubTator ? 'the PubTator text' : 'the BioC collection');
  const content = isPubTator ? input.pubtator! : typeof input.bioc === 'string' ? input.bioc : JSON.stringify(input.bioc);
  const format = isPubTator ? 'pubtator' : corpusFormatOf(content);
  if (!isPubTator && format === 'pubtator') {
    throw new ApiError(
      'invalid_corpus',
      `${file}: bioc holds neither BioC XML (starting with "<") nor BioC JSON (an object or a list); send PubTator text as "pubtator"`,
      [{ file, document: null, reason: 'not BioC' }],
    );
  }
  try {
    return { format, file, ...readCorpusFileEach(content, file, format, { badAnnotations }) };
  } catch (err) {
    if (err instanceof FormatError)
      throw new ApiError('invalid_corpus', `${err.message}; nothing was loaded`, [{ file, document: null, reason: err.message }]);
    throw err;
  }
}

/** What a corpus gives as articles: the articles, the documents that cannot be, the annotations left out of loaded ones. */
export interface CorpusArticles {
  articles: CorpusArticle[];
  failures: LoadFailure[];
  /** `badAnnotations: 'skip'`: each annotation that does not fit its text, left out of a document that was loaded. */
  annotationsLeftOut: CorpusAnnotationLeftOut[];
  deleted?: string[];
}

/**
 * The documents of a corpus as articles (text at the passages' offsets, so annotations of
 * the corpus keep theirs), and each document that cannot be an article with its reason:
 * unreadable, an organiser id the API refuses, too large, empty, an id twice. An
 * annotation that does not fit its text refuses its document, or with `badAnnotations:
 * 'skip'` is left out (the article keeps no annotation anyway) and named.
 */
export function corpusArticles(input: CorpusInput, maxBytes: number, badAnnotations: BadAnnotations = 'refuse'): CorpusArticles {
  const { format, file, documents, failures, annotationsLeftOut = [], deleted } = corpusDocuments(input, badAnnotations);
  const sourceFormat = format === 'pubtator' || format === 'pubmed' ? format : 'bioc';
  const articles: CorpusArticle[] = [];
  const all: LoadFailure[] = [...failures];
  const seen = new Set<string>();
  for (const doc of documents) {
    const where = `${file}, document ${doc.id}`;
    try {
      if (!ORGANISER_ID.test(doc.id))
        throw badRequest(`${where}: the document id cannot be an organiser id (1 to 200 characters, no white space, no "/")`);
      if (seen.has(doc.id)) throw badRequest(`${where}: the document id appears twice`);
      seen.add(doc.id);
      articles.push({ id: doc.id, text: articleText({ text: doc.text }, where, maxBytes).text, sourceFormat, sections: doc.sections });
    } catch (err) {
      if (err instanceof ApiError) all.push({ file, document: doc.id, reason: err.message });
      else throw err;
    }
  }
  // An annotation of a document that was then refused (its id, its size…) is not reported twice.
  const loaded = new Set(articles.map((a) => a.id));
  const leftOut = annotationsLeftOut.filter((a) => loaded.has(a.document));
  return { articles, failures: all, annotationsLeftOut: leftOut, ...(deleted ? { deleted } : {}) };
}

/** The refusal of a batch with failures: every file, document and reason in `details`. */
export function batchRefusal(failures: readonly LoadFailure[]): ApiError {
  const first = failures[0];
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more, listed in details)` : '';
  return new ApiError(
    'invalid_corpus',
    `${failures.length} document(s) cannot be loaded, so nothing was loaded: ${first.reason}${more}. Fix them, or send badDocuments "skip" to load the others (a document whose only fault is annotations that do not fit its text is then loaded without them, each named in "annotationsLeftOut")`,
    failures,
  );
}

/**
 * The text of one article (POST /api/articles, or one listed in a challenge's batch):
 * `text`, `xml`, or a corpus of exactly one document in `bioc`, `pubtator` or `pubmed`, stored with
 * its source format and sections (the document's id is not taken as the article's: the
 * article's id is the one given beside it). `where` names the article in refusals.
 */
export function submittedText(
  input: ArticleInput & CorpusInput,
  maxBytes: number,
  where = 'article',
  badAnnotations: BadAnnotations = 'refuse',
): { text: string; sourceFormat: string; sections?: ArticleSection[]; annotationsLeftOut?: CorpusAnnotationLeftOut[] } {
  if (corpusFields(input).length === 0) return articleText(input, where, maxBytes);
  if (input.text !== undefined || input.xml !== undefined) throw badRequest(`${where}: give one of text, xml, bioc, pubtator or pubmed`);
  const { articles, failures, annotationsLeftOut } = corpusArticles({ ...input, file: input.file ?? where }, maxBytes, badAnnotations);
  if (failures.length > 0) throw batchRefusal(failures);
  if (articles.length !== 1)
    throw badRequest(
      `${where}: the corpus holds ${articles.length} documents; one article holds one (load a whole corpus into a challenge as "bioc", "pubtator" or "pubmed" beside "articles")`,
    );
  const [article] = articles as [CorpusArticle];
  return {
    text: article.text,
    sourceFormat: article.sourceFormat,
    sections: article.sections,
    ...(annotationsLeftOut.length > 0 ? { annotationsLeftOut } : {}),
  };
}
