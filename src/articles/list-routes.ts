// GET /api/challenges/:slug/articles: the articles of a challenge with how far each got,
// for the organiser's articles page. An article's state across the servers it went to:
//   pending  sent to no server yet;
//   running  some server still has it queued or in flight;
//   done     every server answered it;
//   failed   every server finished, and at least one gave up on it.
// Filtered by state in SQL (ArticleRepository.listWithState) and paged, in load order.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { notFound } from '../http/api-error.ts';
import { ListOf, responses, SlugParams } from '../http/schemas.ts';

export { ARTICLE_STATES, type ArticleListRow, type ArticleListState } from './repository.ts';
import { ARTICLE_STATES } from './repository.ts';

const Query = Type.Object(
  {
    state: Type.Optional(Type.Union(ARTICLE_STATES.map((s) => Type.Literal(s)))),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$|^1000$', description: '1 to 1000 (default 100)' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: 'articles to skip (default 0)' })),
  },
  { additionalProperties: false },
);

const ArticleList = Type.Object({
  challenge: Type.String(),
  state: Type.Union([Type.String(), Type.Null()], { description: 'the state filtered on, or null for all' }),
  total: Type.Integer({ description: 'articles matching the filter' }),
  offset: Type.Integer(),
  articles: ListOf({
    id: Type.String(),
    organiserId: Type.Union([Type.String(), Type.Null()]),
    state: Type.String({ description: ARTICLE_STATES.join(' | ') }),
    servers: Type.Integer({ description: 'servers it was sent to' }),
    done: Type.Integer(),
    failed: Type.Integer(),
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
          summary: 'The articles of a challenge with their state across servers, filtered by state (organiser)',
          params: SlugParams,
          querystring: Query,
          response: responses({ 200: ArticleList }),
        },
        config: { access: 'admin' },
      },
      async (request) => {
        const challenge = await ctx.repos.challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        const { state } = request.query;
        const limit = Number(request.query.limit ?? 100);
        const offset = Number(request.query.offset ?? 0);
        const { total, articles } = await ctx.repos.articles.listWithState(challenge.id, state ?? null, limit, offset);
        return { challenge: challenge.slug, state: state ?? null, total, offset, articles };
      },
    );
  };
}
