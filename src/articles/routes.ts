import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { callerKey, type Principal } from '../auth/principal.ts';
import { principalOf } from '../auth/access.ts';
import { LIVE_SLUG } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { badRequest, conflict, notFound } from '../http/api-error.ts';
import { Described, ListOf, Open, preEncoded, responses, rowId, ServerId, SlugParams, TaskListSchema } from '../http/schemas.ts';
import { urlProblem } from '../http/url-policy.ts';
import { batchRefusal, submittedText } from './input.ts';
import { batchItems } from './batch.ts';
import { challengeArticlesBody, registerXmlBodies, submittedArticleBody, XML_BODY_TYPES } from './raw-body.ts';
import type { Article } from './repository.ts';
import { articleStatus } from './status.ts';
import { parseVoteQuery, voteView } from './consensus.ts';
import { ensembleView } from './ensemble-view.ts';
import { articleView } from './view.ts';
import { consensusRoutes } from '../consensus/routes.ts';
import { challengeExportRoutes } from './export-routes.ts';
import { articleListRoutes } from './list-routes.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { clientKey } from '../http/client-address.ts';
import { admitOnDemand } from './on-demand-limits.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

/** Article text fields: a NUL there is one of the characters XML cannot carry, sent as a space (see http/storable-text.ts). */
const ARTICLE_TEXT_FIELDS = ['text', 'given', 'bioc', 'pubtator'];
const OrganiserId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s/]+$' });
const ArticleItem = Type.Object(
  {
    id: OrganiserId,
    text: Type.Optional(Type.String()),
    xml: Type.Optional(Type.String()),
    bioc: Type.Optional(
      Type.Unknown({ description: 'the article as BioC (XML or JSON text, or BioC JSON) holding one document, stored with its passages' }),
    ),
    pubtator: Type.Optional(Type.String({ description: 'the article as PubTator text holding one document' })),
    given: Type.Optional(Type.String({ maxLength: 1_000_000 })),
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
    file: Type.Optional(Type.String({ maxLength: 500, description: 'the file name of bioc/pubtator, named in refusals' })),
    badDocuments: Type.Optional(
      Type.Union([Type.Literal('refuse'), Type.Literal('skip')], {
        description:
          'refuse (default): one bad document refuses the batch, nothing is stored; skip: load the others and list the bad ones in "refused"',
      }),
    ),
  },
  { additionalProperties: false },
);
/** The batch options of a raw BioC body (raw-body.ts), which has no room for them. */
const RawLoadQuery = Type.Object(
  {
    badDocuments: LoadBody.properties.badDocuments,
    file: Type.Optional(Type.String({ maxLength: 500, description: 'the file name of a raw BioC body, named in refusals' })),
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
});
const SubmittedAnswer = Open({
  id: Type.String(),
  statusUrl: Type.String({ description: 'where to poll the article (GET)' }),
  queued: Type.Boolean(),
  notice: Notice,
});
/** What GET /api/articles/:id answers, and the completion callback posts (articles/view.ts). */
const ArticleAnswer = Open({
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

type ArticleQueryValues = { weights?: string; threshold?: string; text?: string };

export function articleRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    registerXmlBodies(base);
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { challenges, articles, servers, store } = ctx.repos;
    const maxBytes = ctx.config.maxArticleBytes;

    /** Live articles are public; a challenge article needs the organiser or a team taking part (which sees its own servers only). */
    async function visibleServerFilter(principal: Principal, article: Article): Promise<(teamId: number) => boolean> {
      if (article.challenge === LIVE_SLUG || principal.role === 'admin') return () => true;
      if (principal.role === 'team' && (await servers.teamHasServerIn(principal.teamId, article.challengeId))) {
        return (teamId) => teamId === principal.teamId;
      }
      throw notFound(`article ${article.id}`);
    }

    // Curators and scripts poll an article until it is done. Each response is kept, encoded,
    // for statusCacheMs per article, caller and text=true/false: a poll within that time
    // costs no database read and no encoding of the 100 KB text (which dominated the route).
    // Responses to other query variants (weights, threshold: any string a caller likes) are
    // computed each time and never kept, and what is kept is bounded by bytes.
    const articleResponses = new LoadingCache<string, { code: number; body: Buffer }>(
      256,
      ctx.config.statusCacheMs,
      ctx.config.statusCacheMs / 2,
      {
        maxBytes: ctx.config.cacheMaxBytes,
        bytesOf: (r) => r.body.length + 100,
      },
    );

    /** The article as this caller may see it; 202 while servers are still at work, 200 when done. */
    async function articleResponse(principal: Principal, article: Article, query: ArticleQueryValues) {
      const visible = await visibleServerFilter(principal, article);
      const view = await articleView(ctx.repos.answers, article, visible, parseVoteQuery(query), { text: query.text !== 'false' });
      return { code: view.status === 'done' ? 200 : 202, view };
    }

    async function sendArticle(principal: Principal, article: Article, reply: FastifyReply, query: ArticleQueryValues = {}) {
      const { code, view } = await articleResponse(principal, article, query);
      return reply.status(code).send(view);
    }

    await base.register(consensusRoutes(ctx));
    await base.register(challengeExportRoutes(ctx));
    await base.register(articleListRoutes(ctx));

    app.post(
      '/challenges/:slug/articles',
      {
        schema: {
          tags: ['articles'],
          summary: 'Load articles into a challenge (organiser); the body may also be a raw BioC collection (XML or JSON)',
          params: SlugParams,
          querystring: RawLoadQuery,
          consumes: BODY_TYPES,
          body: LoadBody,
          response: responses({ 202: LoadedAnswer }),
        },
        config: { access: 'admin', articleTextFields: ARTICLE_TEXT_FIELDS },
        preValidation: async (request) =>
          void ((request as { body: unknown }).body = challengeArticlesBody(
            request.body,
            request.query as Record<string, unknown>,
            request.headers['content-type'],
          )),
      },
      async (request, reply) => {
        const challenge = await challengeOf(challenges, request.params);
        const body = request.body;
        const skip = body.badDocuments === 'skip';
        const { items, refused } = batchItems(body, maxBytes);
        if (refused.length > 0 && !skip) throw batchRefusal(refused);
        if (items.length === 0)
          throw batchRefusal(refused.length > 0 ? refused : [{ document: '-', reason: 'the request holds no document' }]);
        let loaded = await articles.insertMany(challenge.id, items);
        if ('conflicts' in loaded && skip) {
          // Load the others: those whose id is taken by another text are left out, named.
          const taken = new Set(loaded.conflicts.map((c) => c.organiserId));
          for (const id of taken) refused.push({ document: id, reason: `an article with id "${id}" exists already with a different text` });
          const rest = items.filter((item) => !taken.has(item.organiserId!));
          loaded = rest.length > 0 ? await articles.insertMany(challenge.id, rest) : { ids: new Map(), created: [] };
        }
        if ('conflicts' in loaded) {
          throw conflict(
            `${loaded.conflicts.length} article id(s) exist already with a different text (${loaded.conflicts
              .slice(0, 5)
              .map((c) => c.organiserId)
              .join(', ')}); nothing was loaded`,
            loaded.conflicts,
          );
        }
        // Also when nothing is new: a repeated load after a crash queues what was left behind.
        const queued = await ctx.dispatch.articlesAdded(challenge);
        request.log.info({ challenge: challenge.slug, received: items.length, created: loaded.created.length, queued }, 'articles loaded');
        return reply.status(202).send({
          accepted: items.length,
          created: loaded.created.length,
          ids: Object.fromEntries(loaded.ids),
          queued,
          ...(queued ? {} : { notice: queuedLaterNotice('the articles are stored') }),
          ...(skip ? { refused } : {}),
        });
      },
    );

    app.get(
      '/challenges/:slug/articles/:id',
      {
        schema: {
          tags: ['articles'],
          summary: 'An article by its organiser id',
          params: Type.Object({ slug: SlugParams.properties.slug, id: OrganiserId }),
          querystring: ArticleQuery,
          response: responses({ 200: ArticleAnswer, 202: ArticleAnswer }),
        },
        config: { access: 'public' },
      },
      async (request, reply) => {
        const challenge = await challengeOf(challenges, request.params);
        const article = await articles.byOrganiserId(challenge.id, request.params.id);
        if (!article) throw notFound(`article "${request.params.id}" in challenge "${challenge.slug}"`);
        return await sendArticle(principalOf(request), article, reply, request.query);
      },
    );

    app.post(
      '/articles',
      {
        schema: {
          tags: ['articles'],
          summary: 'Submit one article for on-demand annotation by the live servers (JSON, or a raw BioC document or JATS article)',
          consumes: BODY_TYPES,
          body: SubmitBody,
          response: responses({ 202: SubmittedAnswer }),
        },
        preValidation: async (request) =>
          void ((request as { body: unknown }).body = submittedArticleBody(request.body, request.headers['content-type'])),
        config: {
          access: 'public',
          rateLimit: { max: ctx.config.submitRateLimitPerMinute, timeWindow: 60_000 },
          articleTextFields: ARTICLE_TEXT_FIELDS,
        },
        // Anyone may submit: the body is read only up to what an article within the limit
        // can take as JSON (every character escaped as \u00XX at worst), if that is less than bodyLimitBytes.
        bodyLimit: Math.min(ctx.config.bodyLimitBytes, 6 * ctx.config.maxOnDemandArticleBytes + 64 * 1024),
      },
      async (request, reply) => {
        const body = request.body;
        const { text, sourceFormat, sections } = submittedText(body, ctx.config.maxOnDemandArticleBytes);
        if (body.callbackUrl) {
          const problem = urlProblem(body.callbackUrl, ctx.config.publicUrlsOnly);
          if (problem) throw badRequest(`callbackUrl cannot be used: ${problem}`);
        }
        const live = await challenges.bySlug(LIVE_SLUG);
        if (!live) throw notFound('the live challenge');
        refuseWhenClosed(live, 'no on-demand articles are taken');
        const client = clientKey(request);
        const loaded = await articles.insertMany(
          live.id,
          [
            {
              organiserId: body.id ?? null,
              text,
              sourceFormat,
              sections,
              given: body.given ?? '',
              tasks: body.tasks ?? null,
              callbackUrl: body.callbackUrl ?? null,
              submittedBy: client,
            },
          ],
          {
            onDemand: {
              client,
              admit: (pending) =>
                admitOnDemand(pending, { perClient: ctx.config.onDemandPendingPerClient, total: ctx.config.onDemandPendingTotal }),
            },
          },
        );
        if ('conflicts' in loaded)
          throw conflict(`an article with id "${body.id}" exists already with a different text; choose another id`);
        const id = [...loaded.ids.values()][0];
        // Also for an article there already: a client repeating its request after a crash gets it queued.
        const queued = await ctx.dispatch.articlesAdded(live, [id]);
        reply.header('location', absoluteUrlOf(request, ctx.config, `/api/articles/${id}`));
        return reply.status(202).send({
          id,
          statusUrl: `/api/articles/${id}`,
          queued,
          ...(queued ? {} : { notice: queuedLaterNotice('the article is stored') }),
        });
      },
    );

    app.get(
      '/articles/:id',
      {
        schema: {
          tags: ['articles'],
          summary:
            'Article status, every visible answer and, once two servers answered, their voting consensus (202 while running, 200 when done)',
          params: ArticleParams,
          querystring: ArticleQuery,
          response: responses({ 200: ArticleAnswer, 202: ArticleAnswer }),
        },
        // Live articles are public; a challenge article is shown to the organiser and the teams taking part (visibleServerFilter).
        config: { access: 'public' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const q = request.query;
        const respond = async () => {
          const article = await articles.byId(request.params.id, { text: q.text !== 'false' });
          if (!article) throw notFound(`article ${request.params.id}`);
          const { code, view } = await articleResponse(principal, article, q);
          return { code, body: Buffer.from(JSON.stringify(view)) };
        };
        const plain = q.weights === undefined && q.threshold === undefined;
        const key = [request.params.id, callerKey(principal), q.text ?? ''].join('\u0000');
        const answer = plain ? (await articleResponses.get(key, respond))! : await respond();
        return reply
          .status(answer.code)
          .type('application/json; charset=utf-8')
          .send(preEncoded<Static<typeof ArticleAnswer>>(answer.body));
      },
    );

    app.get(
      '/articles/:id/consensus',
      {
        schema: {
          tags: ['articles'],
          summary: 'The consensus of the visible answers: weighted voting (default) or a trained ensemble (?method=ensemble&model=<id>)',
          params: ArticleParams,
          querystring: ConsensusQuery,
          response: responses({ 200: ConsensusAnswer, 202: ConsensusAnswer }),
        },
        config: { access: 'public' },
      },
      async (request, reply) => {
        const article = await articles.byId(request.params.id);
        if (!article) throw notFound(`article ${request.params.id}`);
        const visible = await visibleServerFilter(principalOf(request), article);
        const q = request.query;
        const all = await ctx.repos.answers.serverStates(article.id);
        const status = articleStatus(all);
        const shown = all.filter((s) => visible(s.teamId));
        const answeredCount = shown.filter((s) => s.result).length;
        let consensus;
        if ((q.method ?? 'vote') === 'ensemble') {
          if (q.model === undefined)
            throw badRequest('method=ensemble needs model=<id>; list the models with GET /api/challenges/:slug/ensembles/:task');
          if (q.weights !== undefined || q.threshold !== undefined) throw badRequest('weights and threshold apply to method=vote only');
          consensus = await ensembleView(ctx, article, shown, Number(q.model));
        } else {
          if (q.model !== undefined) throw badRequest('model applies to method=ensemble only');
          consensus = voteView(shown, parseVoteQuery(q)) ?? null;
        }
        return reply.status(status === 'done' ? 200 : 202).send({ id: article.id, status, answered: answeredCount, consensus });
      },
    );

    app.get(
      '/articles/:id/responses/:serverId',
      {
        schema: {
          tags: ['articles'],
          summary: "One server's answer to an article, with every attempt",
          params: ResponseParams,
          response: responses({ 200: ResponseAnswer }),
        },
        config: { access: 'public' },
      },
      async (request) => {
        const article = await articles.byId(request.params.id);
        if (!article) throw notFound(`article ${request.params.id}`);
        const visible = await visibleServerFilter(principalOf(request), article);
        const server = await servers.byId(Number(request.params.serverId));
        if (!server || !visible(server.teamId)) throw notFound(`annotation server ${request.params.serverId}`);
        const [answer, attempts] = await Promise.all([store.answer(article.id, server.id), store.attempts(article.id, server.id)]);
        if (!answer && attempts.length === 0) throw notFound(`a response of server ${server.id} to article ${article.id}`);
        return {
          result: answer?.result ?? null,
          warnings: answer?.warnings ?? [],
          attempts: attempts.map((a) => ({
            n: a.n,
            startedAt: a.startedAt,
            ms: a.ms,
            outcome: a.outcome,
            detail: a.detail,
            errors: a.errors ?? undefined,
          })),
        };
      },
    );
  };
}
