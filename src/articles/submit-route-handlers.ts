// What the article routes that take articles in do (routes.ts registers them,
// route-schemas.ts types them): the organiser's batch load into a challenge, and one
// article submitted on demand to the live servers. Both store first and then queue; when
// Redis does not answer, the answer says the articles reach the queues later.
import type { Config } from '../config.ts';
import type { Challenge, ChallengeRepository } from '../challenges/repository.ts';
import { LIVE_SLUG } from '../challenges/repository.ts';
import { challengeOf } from '../challenges/lookup.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { badRequest, conflict, notFound } from '../http/api-error.ts';
import { clientKey } from '../http/client-address.ts';
import { absoluteUrlOf } from '../http/public-url.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { urlProblem } from '../http/url-policy.ts';
import { batchItems } from './batch.ts';
import { batchRefusal, submittedText, type LoadFailure } from './input.ts';
import { admitOnDemand } from './on-demand-limits.ts';
import type { ArticleRepository, NewArticle } from './repository.ts';
import type * as S from './route-schemas.ts';

/** What taking articles in needs, handed over by the composition root. */
export interface ArticleIntakeDeps {
  config: Pick<
    Config,
    'maxArticleBytes' | 'maxOnDemandArticleBytes' | 'publicUrlsOnly' | 'onDemandPendingPerClient' | 'onDemandPendingTotal' | 'publicUrl'
  >;
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  articles: Pick<ArticleRepository, 'insertMany'>;
  dispatch: ArticleQueues;
}

/** The dispatch service as the intake uses it (named by shape, as dispatch/ reads this folder): false when Redis did not answer. */
interface ArticleQueues {
  articlesAdded(challenge: Challenge, articleIds?: string[]): Promise<boolean>;
}

/**
 * Stores the batch. With `skip`, the articles whose id is taken by another text are left out
 * and named in `refused`, and the others are loaded; otherwise such a conflict loads nothing.
 */
async function insertBatch(
  articles: ArticleIntakeDeps['articles'],
  challenge: Challenge,
  items: NewArticle[],
  skip: boolean,
  refused: LoadFailure[],
): Promise<{ ids: Map<string, string>; created: string[] }> {
  let loaded = await articles.insertMany(challenge.id, items);
  if ('conflicts' in loaded && skip) {
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
  return loaded;
}

/** POST /challenges/:slug/articles: the organiser's batch, every document checked, every refusal named. */
export function loadArticlesHandler(deps: ArticleIntakeDeps): RouteHandler<typeof S.LoadArticles> {
  return async (request, reply) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const body = request.body;
    const skip = body.badDocuments === 'skip';
    const { items, refused, annotationsLeftOut, deleted } = batchItems(body, deps.config.maxArticleBytes);
    if (refused.length > 0 && !skip) throw batchRefusal(refused);
    if (items.length === 0 && deleted && refused.length === 0)
      return reply.status(202).send({ accepted: 0, created: 0, ids: {}, queued: true, deleted, ...(skip ? { refused } : {}) });
    if (items.length === 0) throw batchRefusal(refused.length > 0 ? refused : [{ document: '-', reason: 'the request holds no document' }]);
    const loaded = await insertBatch(deps.articles, challenge, items, skip, refused);
    // Also when nothing is new: a repeated load after a crash queues what was left behind.
    const queued = await deps.dispatch.articlesAdded(challenge);
    request.log.info({ challenge: challenge.slug, received: items.length, created: loaded.created.length, queued }, 'articles loaded');
    return reply.status(202).send({
      accepted: items.length,
      created: loaded.created.length,
      ids: Object.fromEntries(loaded.ids),
      queued,
      ...(queued ? {} : { notice: queuedLaterNotice('the articles are stored') }),
      ...(skip ? { refused, annotationsLeftOut } : {}),
      ...(deleted ? { deleted } : {}),
    });
  };
}

/** POST /articles: one article for the live servers, within the on-demand limits (per client and in total). */
export function submitArticleHandler(deps: ArticleIntakeDeps): RouteHandler<typeof S.SubmitArticle> {
  const { config } = deps;
  return async (request, reply) => {
    const body = request.body;
    const { text, sourceFormat, sections } = submittedText(body, config.maxOnDemandArticleBytes);
    if (body.callbackUrl) {
      const problem = urlProblem(body.callbackUrl, config.publicUrlsOnly);
      if (problem) throw badRequest(`callbackUrl cannot be used: ${problem}`);
    }
    const live = await deps.challenges.bySlug(LIVE_SLUG);
    if (!live) throw notFound('the live challenge');
    refuseWhenClosed(live, 'no on-demand articles are taken');
    const client = clientKey(request);
    const article = {
      organiserId: body.id ?? null,
      text,
      sourceFormat,
      sections,
      given: body.given ?? '',
      tasks: body.tasks ?? null,
      callbackUrl: body.callbackUrl ?? null,
      submittedBy: client,
    };
    const limits = { perClient: config.onDemandPendingPerClient, total: config.onDemandPendingTotal };
    const loaded = await deps.articles.insertMany(live.id, [article], {
      onDemand: { client, admit: (pending) => admitOnDemand(pending, limits) },
    });
    if ('conflicts' in loaded) throw conflict(`an article with id "${body.id}" exists already with a different text; choose another id`);
    const id = [...loaded.ids.values()][0];
    // Also for an article there already: a client repeating its request after a crash gets it queued.
    const queued = await deps.dispatch.articlesAdded(live, [id]);
    reply.header('location', absoluteUrlOf(request, config, `/api/articles/${id}`));
    return reply.status(202).send({
      id,
      statusUrl: `/api/articles/${id}`,
      queued,
      ...(queued ? {} : { notice: queuedLaterNotice('the article is stored') }),
    });
  };
}
