// The web interface: server-rendered pages plus HTML fragments that the page script loads
// with the user's token. Fragments call the JSON API in-process (app.inject) with the
// caller's Authorization header, so every permission rule stays in the API routes alone.
// Each path with its option and request (route-schemas.ts) and the handler that answers it
// (page-handlers.ts, fragment-handlers.ts); the static files first (static-assets.ts).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { InProcessApi } from './html-answers.ts';
import { FragmentHandlers, type FragmentDeps } from './fragment-handlers.ts';
import { PageHandlers, type PageDeps } from './page-handlers.ts';
import { HIDDEN } from './route-schemas.ts';
import { registerStaticAssets } from './static-assets.ts';

/** What the pages and fragments need, handed over by the composition root. */
export type WebRouteDeps = PageDeps & FragmentDeps;

export function webRoutes(deps: WebRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const assets = registerStaticAssets(app);
    const api = new InProcessApi(app);
    const pages = new PageHandlers(deps, assets, api);
    const fragments = new FragmentHandlers(deps, api);

    app.get('/', HIDDEN, pages.home);
    app.get('/team', HIDDEN, pages.team);
    app.get('/organiser', HIDDEN, pages.organiser);
    app.get('/servers/:id', HIDDEN, pages.server);
    app.get('/challenges/:slug/articles', HIDDEN, pages.articles);
    app.get('/challenges/:slug/settings', HIDDEN, pages.settings);
    app.get('/testsuites', HIDDEN, pages.suiteByName);
    app.get('/testsuites/:name', HIDDEN, pages.suite);
    app.get('/articles/:id', HIDDEN, pages.article);
    app.get('/challenges/:slug/leaderboard/:task', HIDDEN, pages.leaderboard);

    app.get('/fragments/articles/:id', HIDDEN, fragments.article);
    app.get('/fragments/servers/:id', HIDDEN, fragments.server);
    app.get('/fragments/team/servers', HIDDEN, fragments.teamServers);
    app.get('/fragments/organiser', HIDDEN, fragments.organiser);
    app.get('/fragments/challenges/:slug/articles', HIDDEN, fragments.articles);
    app.get('/fragments/servers/:id/export', HIDDEN, fragments.serverExport);
    app.get('/fragments/testsuites/:name', HIDDEN, fragments.suite);
    app.get('/fragments/challenges/:slug/leaderboard/:task', HIDDEN, fragments.leaderboard);
  };
}
