// GET/PUT/PATCH /api/challenges/:slug/scored-articles: the organiser says which articles of a
// challenge the leaderboards score; the others are background (as CHEMDNER and DrugProt's
// large-scale track hid their test set among many more documents). Every article goes to
// every server alike whatever its mark, and no team, server or page is told which is
// which: only these organiser routes and the organiser's counts show it. Marks may change in
// any phase, so a background article may be scored after the close, until the leaderboards
// are published (withdraw the publication first). Handlers beside their plugin; schemas in
// scored-route-schemas.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { challengeOf } from '../challenges/lookup.ts';
import type { Challenge, ChallengeRepository } from '../challenges/repository.ts';
import { ApiError, badRequest, conflict } from '../http/api-error.ts';
import type { RouteHandler } from '../http/route-types.ts';
import * as S from './scored-route-schemas.ts';
import {
  LeaderboardsPublishedError,
  UnknownArticlesError,
  type ScoredArticleRepository,
  type ScoredChange,
  type ScoredChangeResult,
} from './scored-repository.ts';

/** What the marking routes need, handed over by the composition root. */
export interface ScoredArticleDeps {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  scored: Pick<ScoredArticleRepository, 'counts' | 'ids' | 'change'>;
}

/** Unknown ids named in a refusal's message; all of them are in its details. */
const NAMED = 10;

async function applyChange(deps: ScoredArticleDeps, challenge: Challenge, change: ScoredChange): Promise<ScoredChangeResult> {
  try {
    return await deps.scored.change(challenge.id, change);
  } catch (err) {
    if (err instanceof UnknownArticlesError) {
      const more = err.unknown.length > NAMED ? ` and ${err.unknown.length - NAMED} more (all in details.unknown)` : '';
      throw new ApiError(
        'bad_request',
        `${err.unknown.length} organiser id(s) name no article of challenge "${challenge.slug}": ${err.unknown.slice(0, NAMED).join(', ')}${more}; nothing was changed. Load those articles first, or leave them out of the list`,
        { unknown: err.unknown },
      );
    }
    if (err instanceof LeaderboardsPublishedError) {
      throw conflict(
        `the leaderboards of "${challenge.slug}" are published, so which articles they score cannot change; nothing was changed. Withdraw the publication first (PATCH /api/challenges/${challenge.slug} {"leaderboardPublished": false})`,
      );
    }
    throw err;
  }
}

function showHandler(deps: ScoredArticleDeps): RouteHandler<typeof S.ScoredArticles> {
  return async (request) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const counts = await deps.scored.counts(challenge.id);
    const list = request.query.list;
    return { challenge: challenge.slug, ...counts, ...(list ? { ids: await deps.scored.ids(challenge.id, list) } : {}) };
  };
}

function putHandler(deps: ScoredArticleDeps): RouteHandler<typeof S.PutScoredArticles> {
  return async (request) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const result = await applyChange(deps, challenge, { exactly: request.body.scored });
    request.log.info(
      { challenge: challenge.slug, scored: result.scored, background: result.background, changed: result.changed },
      'scored articles set',
    );
    return { challenge: challenge.slug, ...result };
  };
}

function patchHandler(deps: ScoredArticleDeps): RouteHandler<typeof S.PatchScoredArticles> {
  return async (request) => {
    const challenge = await challengeOf(deps.challenges, request.params);
    const { scored = [], background = [] } = request.body;
    if (scored.length === 0 && background.length === 0)
      throw badRequest(
        'name the articles to change: {"scored": [organiser ids], "background": [organiser ids]} (either list may be left out)',
      );
    const both = new Set(scored);
    const twice = [...new Set(background.filter((id) => both.has(id)))];
    if (twice.length > 0)
      throw badRequest(
        `${twice.length} organiser id(s) are in both lists, scored and background: ${twice.slice(0, NAMED).join(', ')}; nothing was changed. Name each article once`,
        { both: twice },
      );
    const result = await applyChange(deps, challenge, { scored, background });
    request.log.info(
      { challenge: challenge.slug, scored: result.scored, background: result.background, changed: result.changed },
      'articles marked',
    );
    return { challenge: challenge.slug, ...result };
  };
}

export function scoredArticleRoutes(deps: ScoredArticleDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/challenges/:slug/scored-articles', { schema: S.ScoredArticles, config: { access: 'admin' } }, showHandler(deps));
    app.put('/challenges/:slug/scored-articles', { schema: S.PutScoredArticles, config: { access: 'admin' } }, putHandler(deps));
    app.patch('/challenges/:slug/scored-articles', { schema: S.PatchScoredArticles, config: { access: 'admin' } }, patchHandler(deps));
  };
}
