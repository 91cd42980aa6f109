// The schemas of the article routes (routes.ts) and of a challenge's article list
// (list-routes.ts): what each route takes and answers, as fastify validates it and
// /openapi.json publishes it. One constant per route, named for what the route does, holds
// its whole schema; the bodies, queries and answers they share come first.
import { Type } from 'typebox';
import { Described, ListOf, Open, responses, rowId, ServerId, SlugParams, TaskListSchema } from '../http/schemas.ts';
import { XML_BODY_TYPES } from './raw-body.ts';
import { ARTICLE_STATES, SERVER_OUTCOMES } from './repository.ts';

const TAGS = ['articles'];

const OrganiserId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s/]+$' });
/** The organiser's mark at load (articles/scored-routes.ts changes it later); teams never see it. */
const Background = (what: string) =>
  Type.Boolean({
    description: `true: ${what} is a background article, sent to every server alike but not scored on the leaderboards (default false: scored)`,
  });
const ArticleItem = Type.Object(
  {
    id: OrganiserId,
    text: Type.Optional(Type.String()),
    xml: Type.Optional(Type.String()),
    bioc: Type.Optional(
      Type.Unknown({ description: 'the article as BioC (XML or JSON text, or BioC JSON) holding one document, stored with its passages' }),
    ),
    pubtator: Type.Optional(Type.String({ description: 'the article as PubTator text holding one document' })),
    pubmed: Type.Optional(Type.String({ description: 'the article as PubMed XML holding one citation' })),
    given: Type.Optional(Type.String({ maxLength: 1_000_000 })),
    background: Type.Optional(Background('this article')),
  },
  { additionalProperties: false },
);
const LoadBody = Type.Object(
  {
    articles: Type.Optional(Type.Array(ArticleItem, { minItems: 1, maxItems: 20_000 })),
    bioc: Type.Optional(
      Type.Unknown({
        description:
          'a BioC collection (or one document): XML or JSON text, or BioC JSON itself; each document is an article, its id the organiser id',
      }),
    ),
    pubtator: Type.Optional(
      Type.String({ description: 'PubTator text (PMID|t|…, PMID|a|…, annotation lines); each document is an article' }),
    ),
    pubmed: Type.Optional(
      Type.String({
        description:
          'PubMed or MEDLINE XML (PubmedArticleSet, MedlineCitationSet); each citation is an article, its id the PMID, its text the title, a line feed and the abstract; of a PMID given twice the last wins; DeleteCitation PMIDs are not loaded and are listed in "deleted"',
      }),
    ),
    file: Type.Optional(Type.String({ maxLength: 500, description: 'the file name of bioc/pubtator/pubmed, named in refusals' })),
    badDocuments: Type.Optional(
      Type.Union([Type.Literal('refuse'), Type.Literal('skip')], {
        description:
          'refuse (default): one bad document refuses the batch, nothing is stored; skip: load the others and list the bad ones in "refused", and load a corpus document whose annotations do not fit its text without them, listed in "annotationsLeftOut"',
      }),
    ),
    background: Type.Optional(Background("every article of the request (a listed article's own background decides for it)")),
  },
  { additionalProperties: false },
);
/** The batch options of a raw BioC or PubMed body (raw-body.ts), which has no room for them. */
const RawLoadQuery = Type.Object(
  {
    badDocuments: LoadBody.properties.badDocuments,
    file: Type.Optional(Type.String({ maxLength: 500, description: 'the file name of a raw BioC or PubMed body, named in refusals' })),
    background: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: "true: the raw body's documents are background articles, sent to every server alike but not scored",
      }),
    ),
  },
  { additionalProperties: false },
);
const BODY_TYPES = ['application/json', ...XML_BODY_TYPES];
const SubmitBody = Type.Object(
  {
    text: Type.Optional(Type.String()),
    xml: Type.Optional(Type.String()),
    bioc: Type.Optional(Type.Unknown({ description: 'the article as BioC (XML or JSON text, or BioC JSON) holding one document' })),
    pubtator: Type.Optional(Type.String({ description: 'the article as PubTator text holding one document' })),
    pubmed: Type.Optional(Type.String({ description: 'the article as PubMed XML holding one citation' })),
    given: Type.Optional(
      Type.String({
        maxLength: 1_000_000,
        description: 'the given annotations (standoff lines), sent to the servers registered for a task that takes them',
      }),
    ),
    id: Type.Optional(OrganiserId),
    tasks: Type.Optional(TaskListSchema),
    callbackUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const ArticleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const VoteQuerySchema = Type.Object({
  weights: Type.Optional(Type.String({ maxLength: 2000, description: 'consensus weights per server id, e.g. 3:2,5:1 (default 1 each)' })),
  threshold: Type.Optional(
    Type.String({ maxLength: 40, description: 'consensus threshold, a fraction of the total weight in [0, 1] (default 0.5)' }),
  ),
});
// Pollers watching an article's progress need not fetch its (possibly megabytes of) text each time.
const ArticleQuery = Type.Object({
  ...VoteQuerySchema.properties,
  text: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'false: leave the article text out (lighter, for polling)' }),
  ),
});
const ConsensusQuery = Type.Object({
  ...VoteQuerySchema.properties,
  method: Type.Optional(Type.Union([Type.Literal('vote'), Type.Literal('ensemble')])),
  model: Type.Optional(rowId('ensemble model')),
});
const ResponseParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), serverId: ServerId });

const Notice = Type.Optional(
  Type.String({ description: 'present when Redis did not answer: the change is stored and reaches the queues later' }),
);
const LoadedAnswer = Open({
  accepted: Type.Integer({ description: 'articles in the request' }),
  created: Type.Integer({ description: 'of which new' }),
  ids: Described('the article id of each organiser id, {organiserId: id}'),
  queued: Type.Boolean({ description: 'whether they reached the queues now' }),
  notice: Notice,
  refused: Type.Optional(
    ListOf(
      { file: Type.Optional(Type.String()), document: Type.String(), reason: Type.String() },
      'badDocuments "skip": each document left out and why',
    ),
  ),
  annotationsLeftOut: Type.Optional(
    ListOf(
      { file: Type.String(), document: Type.String(), annotation: Type.String(), reason: Type.String() },
      'badDocuments "skip": each annotation of a loaded corpus document that does not fit its text, left out (the document\'s text was loaded) and why',
    ),
  ),
  deleted: Type.Optional(
    Type.Array(Type.String(), {
      description: 'pubmed: the PMIDs its DeleteCitation lists (not loaded; an article already stored is never removed)',
    }),
  ),
});
const SubmittedAnswer = Open({
  id: Type.String(),
  statusUrl: Type.String({ description: 'where to poll the article (GET)' }),
  queued: Type.Boolean(),
  notice: Notice,
});
/** What GET /api/articles/:id answers, and the completion callback posts (articles/view.ts). */
export const ArticleAnswer = Open({
  id: Type.String(),
  organiserId: Described('the organiser id, or null'),
  challenge: Type.String(),
  status: Type.String({ description: 'pending, running or done (settled: every server answered or failed for good)' }),
  progress: Type.Optional(
    Described('{servers, answered, failed, summary}: how many servers answered and failed for good (when the caller sees every server)'),
  ),
  sourceFormat: Type.String(),
  text: Type.Optional(Type.String({ description: 'left out with ?text=false' })),
  createdAt: Described('ISO 8601'),
  servers: ListOf({}, "each shown server's state and answer"),
  consensus: Type.Optional(Described('the voting consensus, once two servers answered')),
});
const ConsensusAnswer = Open({
  id: Type.String(),
  status: Type.String({ description: 'queued, running or done' }),
  answered: Type.Integer({ description: 'shown servers that answered' }),
  consensus: Described('the consensus (vote or ensemble), or null while fewer than two answered'),
});
const ResponseAnswer = Open({
  result: Described('the stored answer, or null'),
  warnings: Described('warnings raised when it was validated'),
  attempts: ListOf({
    n: Type.Integer(),
    startedAt: Described('ISO 8601'),
    ms: Described('duration, or null'),
    outcome: Described('how it ended, or null while under way'),
    detail: Described('what happened, or null'),
  }),
});

const ListQuery = Type.Object(
  {
    state: Type.Optional(Type.Union(ARTICLE_STATES.map((s) => Type.Literal(s)))),
    server: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'a server of the challenge (with outcome)' })),
    outcome: Type.Optional(
      Type.Union(
        SERVER_OUTCOMES.map((s) => Type.Literal(s)),
        { description: "that server's outcome: answered, failed (for good) or pending (not yet either)" },
      ),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$|^1000$', description: '1 to 1000 (default 100)' })),
    after: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,18}$', description: "the page after this key: the previous answer's `next` (paging by key)" }),
    ),
    offset: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,8}$', description: 'deprecated: articles to skip (at most 10000; page with `after` instead)' }),
    ),
  },
  { additionalProperties: false },
);
const ArticleList = Type.Object({
  challenge: Type.String(),
  state: Type.Union([Type.String(), Type.Null()], { description: 'the state filtered on, or null for all' }),
  server: Type.Optional(
    Type.Object({ id: Type.Integer(), name: Type.String(), outcome: Type.String() }, { description: 'the server outcome filtered on' }),
  ),
  total: Type.Union([Type.Integer(), Type.Null()], {
    description: 'articles matching the filter, counted on the first page only (no `after`); null on the pages after',
  }),
  offset: Type.Integer(),
  next: Type.Union([Type.String(), Type.Null()], { description: 'the key of the next page (pass it as `after`); null on the last page' }),
  articles: ListOf({
    id: Type.String(),
    organiserId: Type.Union([Type.String(), Type.Null()]),
    state: Type.String({ description: 'pending | running | done (settled: every server answered or failed for good)' }),
    servers: Type.Integer({ description: 'servers it was sent to' }),
    done: Type.Integer({ description: 'servers that answered' }),
    failed: Type.Integer({ description: 'servers that failed for good' }),
    summary: Type.String({ description: 'the same in words, as on the article page: "answered by 19 of 20 servers, failed at 1"' }),
    bytes: Type.Integer({ description: 'size of its text in UTF-8' }),
    createdAt: Type.Unknown({ description: 'ISO 8601' }),
  }),
});

export const ChallengeArticles = {
  tags: TAGS,
  summary: "The articles of a challenge with their state across servers, filtered by state or by one server's outcome (organiser)",
  params: SlugParams,
  querystring: ListQuery,
  response: responses({ 200: ArticleList }),
};

export const LoadArticles = {
  tags: TAGS,
  summary: 'Load articles into a challenge (organiser); the body may also be a raw BioC collection (XML or JSON) or raw PubMed XML',
  params: SlugParams,
  querystring: RawLoadQuery,
  consumes: BODY_TYPES,
  body: LoadBody,
  response: responses({ 202: LoadedAnswer }),
};

export const ChallengeArticle = {
  tags: TAGS,
  summary: 'An article by its organiser id',
  params: Type.Object({ slug: SlugParams.properties.slug, id: OrganiserId }),
  querystring: ArticleQuery,
  response: responses({ 200: ArticleAnswer, 202: ArticleAnswer }),
};

export const SubmitArticle = {
  tags: TAGS,
  summary: 'Submit one article for on-demand annotation by the live servers (JSON, or a raw BioC document or JATS article)',
  consumes: BODY_TYPES,
  body: SubmitBody,
  response: responses({ 202: SubmittedAnswer }),
};

export const ArticleById = {
  tags: TAGS,
  summary: 'Article status, every visible answer and, once two servers answered, their voting consensus (202 while running, 200 when done)',
  params: ArticleParams,
  querystring: ArticleQuery,
  response: responses({ 200: ArticleAnswer, 202: ArticleAnswer }),
};

export const ArticleConsensus = {
  tags: TAGS,
  summary: 'The consensus of the visible answers: weighted voting (default) or a trained ensemble (?method=ensemble&model=<id>)',
  params: ArticleParams,
  querystring: ConsensusQuery,
  response: responses({ 200: ConsensusAnswer, 202: ConsensusAnswer }),
};

export const ServerResponse = {
  tags: TAGS,
  summary: "One server's answer to an article, with every attempt",
  params: ResponseParams,
  response: responses({ 200: ResponseAnswer }),
};
