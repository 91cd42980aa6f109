// A batch of articles for a challenge (POST /api/challenges/:slug/articles): listed
// articles ({id, text | xml | bioc | pubtator | pubmed}, the last three holding one document: what
// `metaserver import` sends for a corpus document or a citation) and the documents of a BioC or PubTator corpus
// or the citations of PubMed XML (`DeleteCitation`s listed in `deleted`, never removing anything), each checked
// as an article, and every one that cannot be loaded named with its reason. Whether a bad
// one refuses the batch (`badDocuments: "refuse"`, the default: nothing is stored) or is
// left out (`"skip"`) is the route's; this only sorts them. Skipping, an annotation of a
// corpus document that does not fit its text is left out (named in `annotationsLeftOut`)
// and the document's text loaded; refusing, it refuses its document, naming it.
import type { CorpusAnnotationLeftOut } from '../formats/corpus-file.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { corpusArticles, submittedText, type ArticleInput, type BadDocuments, type CorpusInput, type LoadFailure } from './input.ts';
import type { NewArticle } from './repository.ts';

export interface BatchBody extends CorpusInput {
  articles?: Array<ArticleInput & Omit<CorpusInput, 'file'> & { id: string; background?: boolean }>;
  badDocuments?: BadDocuments;
  /** Every article of the request is a background article (a listed article's own `background` decides for it). */
  background?: boolean;
}

export function batchItems(
  body: BatchBody,
  maxBytes: number,
): { items: NewArticle[]; refused: LoadFailure[]; annotationsLeftOut: CorpusAnnotationLeftOut[]; deleted?: string[] } {
  const skip = body.badDocuments === 'skip';
  const hasCorpus = body.bioc !== undefined || body.pubtator !== undefined || body.pubmed !== undefined;
  if (!body.articles && !hasCorpus)
    throw badRequest(
      'send "articles" (a list of {id, text | xml}), "bioc" (a BioC collection), "pubtator" (PubTator text) or "pubmed" (PubMed XML)',
    );
  const refused: LoadFailure[] = [];
  // Skipping, an annotation that does not fit its text costs only itself, not its document's text.
  const badAnnotations = skip ? 'skip' : 'refuse';
  const annotationsLeftOut: CorpusAnnotationLeftOut[] = [];
  const seen = new Set<string>();
  const items: NewArticle[] = [];
  const add = (item: NewArticle, where: string) => {
    if (seen.has(item.organiserId!)) throw badRequest(`${where}: id "${item.organiserId}" appears twice in this request`);
    seen.add(item.organiserId!);
    items.push(item);
  };
  (body.articles ?? []).forEach((a, i) => {
    const where = `articles[${i}] (${a.id})`;
    try {
      const { text, sourceFormat, sections, annotationsLeftOut: leftOut } = submittedText(a, maxBytes, where, badAnnotations);
      add(
        { organiserId: a.id, text, sourceFormat, sections, given: a.given ?? '', scored: !(a.background ?? body.background ?? false) },
        where,
      );
      annotationsLeftOut.push(...(leftOut ?? []));
    } catch (err) {
      // Refusing, a listed article's own error (its code: too large, bad JATS…) is the answer.
      if (!skip || !(err instanceof ApiError)) throw err;
      refused.push({ document: a.id, reason: err.message });
    }
  });
  let deleted: string[] | undefined;
  if (hasCorpus) {
    const corpus = corpusArticles(body, maxBytes, badAnnotations);
    deleted = corpus.deleted;
    refused.push(...corpus.failures);
    const leftOutOf = new Map<string, CorpusAnnotationLeftOut[]>();
    for (const x of corpus.annotationsLeftOut) {
      const list = leftOutOf.get(x.document);
      if (list) list.push(x);
      else leftOutOf.set(x.document, [x]);
    }
    for (const a of corpus.articles) {
      try {
        add(
          { organiserId: a.id, text: a.text, sourceFormat: a.sourceFormat, sections: a.sections, scored: body.background !== true },
          `${body.file ?? a.sourceFormat}, document ${a.id}`,
        );
        annotationsLeftOut.push(...(leftOutOf.get(a.id) ?? []));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        refused.push({ file: body.file, document: a.id, reason: err.message });
      }
    }
  }
  return { items, refused, annotationsLeftOut, ...(deleted ? { deleted } : {}) };
}
