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
// Filtered in SQL (ArticleRepository.listWithState) and paged by key, in load order: each
// answer's `next` is passed as ?after= for the page after (null: the last page); `total`
// comes with the first page only (no `after`): from the index and the delivery counters for
// the whole list or one server's outcome (list-total-repository.ts), counted over the whole
// challenge for a state, which no counter holds. ?offset= still works up to 10,000
// (deprecated: it reads every article it skips); past that it is refused, naming `after`.
// The schema is ChallengeArticles in route-schemas.ts, beside the other article routes'.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { ArticleRepository } from './repository.ts';
import * as S from './route-schemas.ts';

/** The largest `offset` (deprecated): skipping reads every article skipped. The web page's old links stop here too. */
export const MAX_OFFSET = 10_000;

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
    if (offset > MAX_OFFSET)
      throw badRequest(
        `offset ${offset} is too far to skip (at most ${MAX_OFFSET}): page with ?after=<next>, the "next" key each answer gives, instead`,
      );
    const after = request.query.after === undefined ? null : Number(request.query.after);
    const filter = { state: state ?? null, ...(server && outcome ? { server: { id: server.id, outcome } } : {}) };
    const page = { limit, offset, after, count: after === null };
    const { total, next, articles } = await deps.articles.listWithState(challenge.id, filter, page);
    return {
      challenge: challenge.slug,
      state: state ?? null,
      ...(server && outcome ? { server: { id: server.id, name: server.name, outcome } } : {}),
      total,
      offset,
      next: next === null ? null : String(next),
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
