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
// Filtered in SQL (ArticleRepository.listWithState) and paged, in load order. The schema is
// ChallengeArticles in route-schemas.ts, beside the other article routes'.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { ArticleRepository } from './repository.ts';
import * as S from './route-schemas.ts';

/** What the list needs, handed over by the composition root. */
export interface ArticleListDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  servers: Pick<ServerRepository, 'byId'>;
  articles: Pick<ArticleRepository, 'listWithState'>;
}

function listArticlesHandler(deps: ArticleListDeps): RouteHandler<typeof S.ChallengeArticles> {
  return async (request) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const { state, server: serverParam, outcome } = request.query;
    if ((serverParam === undefined) !== (outcome === undefined)) {
      throw badRequest('server and outcome go together: ?server=<server id>&outcome=answered|failed|pending');
    }
    const server = serverParam === undefined ? null : await deps.servers.byId(Number(serverParam));
    if (serverParam !== undefined && (!server || server.challengeId !== challenge.id))
      throw notFound(`server ${serverParam} in challenge "${challenge.slug}"`);
    const limit = Number(request.query.limit ?? 100);
    const offset = Number(request.query.offset ?? 0);
    const filter = { state: state ?? null, ...(server && outcome ? { server: { id: server.id, outcome } } : {}) };
    const { total, articles } = await deps.articles.listWithState(challenge.id, filter, limit, offset);
    return {
      challenge: challenge.slug,
      state: state ?? null,
      ...(server && outcome ? { server: { id: server.id, name: server.name, outcome } } : {}),
      total,
      offset,
      articles,
    };
  };
}

export function articleListRoutes(deps: ArticleListDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/challenges/:slug/articles', { schema: S.ChallengeArticles, config: { access: 'admin' } }, listArticlesHandler(deps));
  };
}
