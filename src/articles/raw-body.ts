// Raw BioC bodies on the article routes: a corpus file sent as it is (`curl --data-binary
// @corpus.xml -H 'content-type: application/xml'`), as the gold and run routes take XML
// bodies. Before validation the raw body is turned into the routes' JSON form, so one code
// path reads it:
// - XML (application/xml, text/xml) whose root is <collection> or <document> is `bioc`;
//   on POST /api/articles an <article> root (JATS) is `xml`; on a challenge's batch a
//   <PubmedArticleSet> or <MedlineCitationSet> root (PubMed, MEDLINE) is `pubmed`; any other root is refused.
// - JSON whose top level is a BioC collection (`documents`) or document (`passages`) and
//   has none of the JSON form's fields is `bioc`.
// The batch options of a raw body (`badDocuments`, `file`) come from the query.
// An XML body is decoded as `metaserver import` decodes an XML file
// (formats/text-decoding.ts): in the encoding its byte-order mark or declaration names, else
// the Content-Type's charset, else UTF-8, strictly; bytes that are not of that encoding are
// refused naming the first bad byte and the encoding it likely is, so a Latin-1 file that
// says so is read and one that does not is refused, the same way on both paths.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FormatError } from '../formats/common.ts';
import { decodeXml } from '../formats/text-decoding.ts';
import { xmlRootElement } from '../formats/xml-root.ts';
import { ApiError, badRequest } from '../http/api-error.ts';

export const XML_BODY_TYPES = ['application/xml', 'text/xml'];

/** The charset parameter of the request's Content-Type, if any. */
const charsetOf = (request: FastifyRequest): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];

/** What the body is called in a refusal: the `file` of the query, else "the request body". */
const bodyName = (request: FastifyRequest): string => {
  const file = (request.query as Record<string, unknown> | undefined)?.file;
  return typeof file === 'string' && file !== '' ? file : 'the request body';
};

/** XML bodies as text in their declared encoding, for this plugin's routes only (fastify encapsulation). */
export function registerXmlBodies(app: FastifyInstance): void {
  for (const type of XML_BODY_TYPES) if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  app.addContentTypeParser(XML_BODY_TYPES, { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    try {
      done(null, decodeXml(body, bodyName(request), charsetOf(request)));
    } catch (err) {
      if (!(err instanceof FormatError)) return done(err as Error, undefined);
      const message = err.message.replace(/^encoding: /, '');
      // The code stays the catalogue's for a body the server cannot decode.
      done(new ApiError('invalid_utf8', `${message}; nothing was loaded`), undefined);
    }
  });
}

/** A text body the XML parser above read (any other text body is left to validation, which refuses it). */
const isXmlBody = (body: unknown, contentType: string | undefined): body is string =>
  typeof body === 'string' && XML_BODY_TYPES.some((t) => (contentType ?? '').toLowerCase().startsWith(t));

const JSON_FORM_FIELDS = ['articles', 'bioc', 'pubtator', 'pubmed', 'text', 'xml'];

/** A BioC collection or document at the top level of a JSON body (not the routes' JSON form). */
function isBiocJson(body: object): boolean {
  const o = body as Record<string, unknown>;
  return !Array.isArray(body) && (Array.isArray(o.documents) || Array.isArray(o.passages)) && !JSON_FORM_FIELDS.some((f) => f in o);
}

/** Names what the refusal of an XML body is about. */
const refuseRoot = (root: string | undefined, takes: string) =>
  new ApiError(
    'invalid_corpus',
    `the XML body ${root === undefined ? 'has no root element' : `has the root element <${root}>`}; this route takes ${takes}`,
    [{ file: 'the request body', document: null, reason: root === undefined ? 'no root element' : `root <${root}>` }],
  );

/** POST /challenges/:slug/articles: a raw BioC body as `{bioc, badDocuments?, file?, background?}` (the options from the query). */
export function challengeArticlesBody(body: unknown, query: Record<string, unknown>, contentType: string | undefined): unknown {
  // The query's schema (true or false) is checked after this; anything else is refused there.
  const background = query.background === undefined ? undefined : query.background === 'true';
  const options = { badDocuments: query.badDocuments, file: query.file ?? 'the request body', background };
  const xml = isXmlBody(body, contentType);
  const raw = xml || (typeof body === 'object' && body !== null && isBiocJson(body));
  if (!raw) {
    if (query.badDocuments !== undefined || query.file !== undefined || query.background !== undefined)
      throw badRequest(
        'badDocuments, file and background in the query are for a raw BioC body; in the JSON form give them as fields of the body',
      );
    return body;
  }
  let field = 'bioc';
  if (xml) {
    const root = xmlRootElement(body);
    if (root === 'PubmedArticleSet' || root === 'MedlineCitationSet') field = 'pubmed';
    else if (root !== 'collection' && root !== 'document')
      throw refuseRoot(
        root,
        'BioC XML (<collection> or <document>) or PubMed XML (<PubmedArticleSet>, <MedlineCitationSet>); send JATS articles as {"articles": [{"id", "xml"}]}',
      );
  }
  return Object.fromEntries(Object.entries({ [field]: body, ...options }).filter(([, v]) => v !== undefined));
}

/** POST /articles: a raw BioC body (one document) as `{bioc}`, a raw JATS article as `{xml}`. */
export function submittedArticleBody(body: unknown, contentType: string | undefined): unknown {
  if (isXmlBody(body, contentType)) {
    const root = xmlRootElement(body);
    if (root === 'collection' || root === 'document') return { bioc: body };
    if (root === 'article' || root === 'pmc-articleset') return { xml: body };
    throw refuseRoot(root, 'BioC XML (<collection> or <document>, one document) or a JATS <article>');
  }
  return typeof body === 'object' && body !== null && isBiocJson(body) ? { bioc: body } : body;
}
