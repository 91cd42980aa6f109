// What the article routes that show answers do (routes.ts registers them, route-schemas.ts
// types them): one article as the caller may see it (by id, with a short cache for pollers,
// or by organiser id), its consensus, and one server's response with every attempt. Who
// may see which servers is visibleServerFilter (view.ts), the one rule for all of them.
import type { Static } from 'typebox';
import type { Config } from '../config.ts';
import { callerKey, type Principal } from '../auth/principal.ts';
import { principalOf } from '../auth/access.ts';
import { challengeOf } from '../challenges/lookup.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { EnsembleModelRepository } from '../consensus/model-repository.ts';
import { badRequest, notFound } from '../http/api-error.ts';
import { preEncoded } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { ServerRepository } from '../servers/repository.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import type { AnswerRepository } from './answer-repository.ts';
import { parseVoteQuery, voteView } from './consensus.ts';
import { ensembleView } from './ensemble-view.ts';
import type { Article, ArticleRepository } from './repository.ts';
import { articleStatus } from './status.ts';
import { articleView, visibleServerFilter } from './view.ts';
import type * as S from './route-schemas.ts';

/** What the article views need, handed over by the composition root. */
export interface ArticleViewDeps {
  config: Pick<Config, 'statusCacheMs' | 'cacheMaxBytes'>;
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  articles: Pick<ArticleRepository, 'byId' | 'byOrganiserId'>;
  servers: Pick<ServerRepository, 'teamHasServerIn' | 'byId' | 'listByChallenge'>;
  models: Pick<EnsembleModelRepository, 'byId'>;
  answers: AnswerRepository;
  store: StoredResponses;
}

/** One server's stored answer and attempts: the dispatch store, named by shape (dispatch/ reads this folder). */
interface StoredResponses {
  answer(articleId: string, serverId: number): Promise<{ result: AnswerResult; warnings: unknown[] } | null>;
  attempts(
    articleId: string,
    serverId: number,
  ): Promise<
    Array<{ n: number; startedAt: Date; ms: number | null; outcome: string | null; detail: string | null; errors: unknown[] | null }>
  >;
}

type ArticleQueryValues = { weights?: string; threshold?: string; text?: string };

export class ArticleViewHandlers {
  // Curators and scripts poll an article until it is done. Each response is kept, encoded,
  // for statusCacheMs per article, caller and text=true/false: a poll within that time
  // costs no database read and no encoding of the 100 KB text (which dominated the route).
  // Responses to other query variants (weights, threshold: any string a caller likes) are
  // computed each time and never kept, and what is kept is bounded by bytes.
  private readonly articleResponses: LoadingCache<string, { code: number; body: Buffer }>;

  constructor(private readonly deps: ArticleViewDeps) {
    const { statusCacheMs, cacheMaxBytes } = deps.config;
    this.articleResponses = new LoadingCache<string, { code: number; body: Buffer }>(256, statusCacheMs, statusCacheMs / 2, {
      maxBytes: cacheMaxBytes,
      bytesOf: (r) => r.body.length + 100,
    });
  }

  /** The article (by id), or 404. */
  private async article(id: string, opts?: { text?: boolean }): Promise<Article> {
    const article = await this.deps.articles.byId(id, opts);
    if (!article) throw notFound(`article ${id}`);
    return article;
  }

  /** The article as this caller may see it; 202 while servers are still at work, 200 when done. */
  private async articleResponse(principal: Principal, article: Article, query: ArticleQueryValues) {
    const visible = await visibleServerFilter(this.deps.servers, principal, article);
    const view = await articleView(this.deps.answers, article, visible, parseVoteQuery(query), { text: query.text !== 'false' });
    return { code: view.status === 'done' ? 200 : 202, view };
  }

  readonly byOrganiserId: RouteHandler<typeof S.ChallengeArticle> = async (request, reply) => {
    const challenge = await challengeOf(this.deps.challenges, request.params);
    const article = await this.deps.articles.byOrganiserId(challenge.id, request.params.id);
    if (!article) throw notFound(`article "${request.params.id}" in challenge "${challenge.slug}"`);
    const { code, view } = await this.articleResponse(principalOf(request), article, request.query);
    return reply.status(code).send(view);
  };

  readonly byId: RouteHandler<typeof S.ArticleById> = async (request, reply) => {
    const principal = principalOf(request);
    const q = request.query;
    const respond = async () => {
      const article = await this.article(request.params.id, { text: q.text !== 'false' });
      const { code, view } = await this.articleResponse(principal, article, q);
      return { code, body: Buffer.from(JSON.stringify(view)) };
    };
    const plain = q.weights === undefined && q.threshold === undefined;
    const key = [request.params.id, callerKey(principal), q.text ?? ''].join('\u0000');
    const answer = plain ? (await this.articleResponses.get(key, respond))! : await respond();
    return reply.status(answer.code).type('application/json; charset=utf-8').send(preEncoded<Static<typeof S.ArticleAnswer>>(answer.body));
  };

  readonly consensus: RouteHandler<typeof S.ArticleConsensus> = async (request, reply) => {
    const article = await this.article(request.params.id);
    const visible = await visibleServerFilter(this.deps.servers, principalOf(request), article);
    const q = request.query;
    const all = await this.deps.answers.serverStates(article.id);
    const status = articleStatus(all);
    const shown = all.filter((s) => visible(s.teamId));
    const answeredCount = shown.filter((s) => s.result).length;
    let consensus;
    if ((q.method ?? 'vote') === 'ensemble') {
      if (q.model === undefined)
        throw badRequest('method=ensemble needs model=<id>; list the models with GET /api/challenges/:slug/ensembles/:task');
      if (q.weights !== undefined || q.threshold !== undefined) throw badRequest('weights and threshold apply to method=vote only');
      consensus = await ensembleView(this.deps, article, shown, Number(q.model));
    } else {
      if (q.model !== undefined) throw badRequest('model applies to method=ensemble only');
      consensus = voteView(shown, parseVoteQuery(q)) ?? null;
    }
    return reply.status(status === 'done' ? 200 : 202).send({ id: article.id, status, answered: answeredCount, consensus });
  };

  readonly serverResponse: RouteHandler<typeof S.ServerResponse> = async (request) => {
    const article = await this.article(request.params.id);
    const visible = await visibleServerFilter(this.deps.servers, principalOf(request), article);
    const server = await this.deps.servers.byId(Number(request.params.serverId));
    if (!server || !visible(server.teamId)) throw notFound(`annotation server ${request.params.serverId}`);
    const { store } = this.deps;
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
  };
}
