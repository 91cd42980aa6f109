// The article routes: each path with its schema (route-schemas.ts), who may call it, and the
// handler that answers it (submit-route-handlers.ts takes articles in, view-route-handlers.ts
// shows them). The plugin also registers, in its own scope, the trained ensembles'
// routes (consensus/routes.ts), the exports (export-routes.ts), a challenge's article
// list (list-routes.ts) and the organiser's marks of scored articles (scored-routes.ts): they come first in /openapi.json, and they see the XML body parsers
// registered here, as every route of this plugin does. It takes what all of them need, by
// name, from the composition root.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import { consensusRoutes } from '../consensus/routes.ts';
import type { EnsembleRouteDeps } from '../consensus/route-handlers.ts';
import { challengeExportRoutes } from './export-routes.ts';
import type { ExportRouteDeps } from './export-route-handlers.ts';
import { articleListRoutes, type ArticleListDeps } from './list-routes.ts';
import { scoredArticleRoutes, type ScoredArticleDeps } from './scored-routes.ts';
import { challengeArticlesBody, registerXmlBodies, submittedArticleBody } from './raw-body.ts';
import * as S from './route-schemas.ts';
import { loadArticlesHandler, submitArticleHandler, type ArticleIntakeDeps } from './submit-route-handlers.ts';
import { ArticleViewHandlers, type ArticleViewDeps } from './view-route-handlers.ts';

/** What the article plugin and the plugins it registers in its scope need, handed over by the composition root. */
export type ArticleRouteDeps = ArticleIntakeDeps &
  ArticleViewDeps &
  EnsembleRouteDeps &
  ExportRouteDeps &
  ArticleListDeps &
  ScoredArticleDeps & { config: Pick<Config, 'submitRateLimitPerMinute' | 'bodyLimitBytes' | 'maxOnDemandArticleBytes'> };

/** Article text fields: a NUL there is one of the characters XML cannot carry, sent as a space (see http/storable-text.ts). */
const ARTICLE_TEXT_FIELDS = ['text', 'given', 'bioc', 'pubtator', 'pubmed'];

export function articleRoutes(deps: ArticleRouteDeps): FastifyPluginAsync {
  return async (base) => {
    registerXmlBodies(base);
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const views = new ArticleViewHandlers(deps);
    const { config } = deps;

    await base.register(consensusRoutes(deps));
    await base.register(challengeExportRoutes(deps));
    await base.register(articleListRoutes(deps));
    await base.register(scoredArticleRoutes(deps));

    app.post(
      '/challenges/:slug/articles',
      {
        schema: S.LoadArticles,
        config: { access: 'admin', articleTextFields: ARTICLE_TEXT_FIELDS },
        // A raw BioC body (raw-body.ts) becomes the JSON form before validation; its batch options come from the query.
        preValidation: async (request) =>
          void ((request as { body: unknown }).body = challengeArticlesBody(
            request.body,
            request.query as Record<string, unknown>,
            request.headers['content-type'],
          )),
      },
      loadArticlesHandler(deps),
    );
    app.get('/challenges/:slug/articles/:id', { schema: S.ChallengeArticle, config: { access: 'public' } }, views.byOrganiserId);
    app.post(
      '/articles',
      {
        schema: S.SubmitArticle,
        preValidation: async (request) =>
          void ((request as { body: unknown }).body = submittedArticleBody(request.body, request.headers['content-type'])),
        config: {
          access: 'public',
          rateLimit: { max: config.submitRateLimitPerMinute, timeWindow: 60_000 },
          articleTextFields: ARTICLE_TEXT_FIELDS,
        },
        // Anyone may submit: the body is read only up to what an article within the limit
        // can take as JSON (every character escaped as \u00XX at worst), if that is less than bodyLimitBytes.
        bodyLimit: Math.min(config.bodyLimitBytes, 6 * config.maxOnDemandArticleBytes + 64 * 1024),
      },
      submitArticleHandler(deps),
    );
    // Live articles are public; a challenge article is shown to the organiser and the teams taking part (visibleServerFilter, view.ts).
    app.get('/articles/:id', { schema: S.ArticleById, config: { access: 'public' } }, views.byId);
    app.get('/articles/:id/consensus', { schema: S.ArticleConsensus, config: { access: 'public' } }, views.consensus);
    app.get('/articles/:id/responses/:serverId', { schema: S.ServerResponse, config: { access: 'public' } }, views.serverResponse);
  };
}
