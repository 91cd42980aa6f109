// GET /api/challenges/:slug/articles: the articles of a challenge with how far each got,
// for the organiser's articles page. An article's state across the servers it went to
// (articles/status.ts, the same words as the article page):
//   pending  sent to no server yet;
//   running  some server still has it queued or in flight;
//   done     settled: every server answered it or failed for good — with the counts
//            (answered by N, failed at M);
// and the filter `failed`: settled, with at least one server failed for good. With
// ?server=ID&outcome=answered|failed|pending, only the articles with that outcome at that
// server (a server's lost articles, one click from its page).
// Filtered in SQL (ArticleRepository.listWithState) and paged, in load order.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { badRequest, notFound } from '../http/api-error.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { ListOf, responses, SlugParams } from '../http/schemas.ts';

export { ARTICLE_STATES, SERVER_OUTCOMES, type ArticleListRow, type ArticleListState, type ServerOutcome } from './repository.ts';
import { ARTICLE_STATES, SERVER_OUTCOMES } from './repository.ts';

const Query = Type.Object(
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
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: 'articles to skip (default 0)' })),
  },
  { additionalProperties: false },
);

const ArticleList = Type.Object({
  challenge: Type.String(),
  state: Type.Union([Type.String(), Type.Null()], { description: 'the state filtered on, or null for all' }),
  server: Type.Optional(
    Type.Object({ id: Type.Integer(), name: Type.String(), outcome: Type.String() }, { description: 'the server outcome filtered on' }),
  ),
  total: Type.Integer({ description: 'articles matching the filter' }),
  offset: Type.Integer(),
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

export function articleListRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/challenges/:slug/articles',
      {
        schema: {
          tags: ['articles'],
          summary: "The articles of a challenge with their state across servers, filtered by state or by one server's outcome (organiser)",
          params: SlugParams,
          querystring: Query,
          response: responses({ 200: ArticleList }),
        },
        config: { access: 'admin' },
      },
      async (request) => {
        const challenge = await challengeOf(ctx.repos.challenges, request.params);
        const { state, server: serverParam, outcome } = request.query;
        if ((serverParam === undefined) !== (outcome === undefined)) {
          throw badRequest('server and outcome go together: ?server=<server id>&outcome=answered|failed|pending');
        }
        const server = serverParam === undefined ? null : await ctx.repos.servers.byId(Number(serverParam));
        if (serverParam !== undefined && (!server || server.challengeId !== challenge.id))
          throw notFound(`server ${serverParam} in challenge "${challenge.slug}"`);
        const limit = Number(request.query.limit ?? 100);
        const offset = Number(request.query.offset ?? 0);
        const filter = { state: state ?? null, ...(server && outcome ? { server: { id: server.id, outcome } } : {}) };
        const { total, articles } = await ctx.repos.articles.listWithState(challenge.id, filter, limit, offset);
        return {
          challenge: challenge.slug,
          state: state ?? null,
          ...(server && outcome ? { server: { id: server.id, name: server.name, outcome } } : {}),
          total,
          offset,
          articles,
        };
      },
    );
  };
}
