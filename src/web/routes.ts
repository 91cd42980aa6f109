// The web interface: server-rendered pages plus HTML fragments that the page script loads
// with the user's token. Fragments call the JSON API in-process (app.inject) with the
// caller's Authorization header, so every permission rule stays in the API routes alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { html, type SafeHtml } from './html.ts';
import { page, type StaticAssets } from './layout.ts';
import { articleFragment, articlePageBody, homePageBody, type ArticleJson } from './pages/article.ts';
import { fullAxes, leaderboardFragment, leaderboardPageBody, type BoardJson } from './pages/leaderboard.ts';
import { scoreQueryString } from './pages/leaderboard-options.ts';
import { organiserFragment, organiserPageBody } from './pages/organiser.ts';
import {
  exportFragment,
  serverFragment,
  serverPageBody,
  ERRORS_PAGE_SIZE,
  teamPageBody,
  teamServersFragment,
  type ServerJson,
} from './pages/team.ts';
import {
  articlesFragment,
  articlesPageBody,
  ARTICLES_PAGE_SIZE,
  serverOutcomeFilter,
  settingsPageBody,
  type ArticleListJson,
} from './pages/challenge.ts';
import { testsuiteFragment, testsuitePageBody, type SuiteProgressJson } from './pages/testsuite.ts';
import type { Role } from './layout.ts';
import { ARTICLE_STATES, type ArticleListState } from '../articles/list-routes.ts';
import { formatsFor } from '../articles/export-routes.ts';
import { glanceReader } from './glance.ts';
import { reportSections } from './pages/suite-report.ts';
import type { SuiteReport } from '../testsuites/report.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

/** The pages hold a token in localStorage: no foreign script, style or connection may run. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
/** Pages and fragments are public: fragments call the API with the caller's token, which decides what they show. */
const HIDDEN = { schema: { hide: true }, config: { access: 'public' as const } };

// The one stylesheet and the one script, read once at start and served with long cache
// headers. Their URLs carry a content hash, so a new version is fetched after an upgrade.
interface Asset {
  body: string;
  type: string;
  etag: string;
  url: string;
}

function load(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./static/${file}`, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { body, type, etag: `"${hash}"`, url: `/static/${file}?v=${hash}` };
}

function registerStaticAssets(app: FastifyInstance): StaticAssets {
  const assets = {
    'app.css': load('app.css', 'text/css; charset=utf-8'),
    'app.js': load('app.js', 'text/javascript; charset=utf-8'),
    'viewer.css': load('viewer.css', 'text/css; charset=utf-8'),
    'viewer.js': load('viewer.js', 'text/javascript; charset=utf-8'),
  };
  for (const [file, asset] of Object.entries(assets)) {
    app.get(`/static/${file}`, { schema: { hide: true }, config: { access: 'public' } }, async (request, reply) => {
      reply.header('etag', asset.etag).header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      return reply.type(asset.type).send(asset.body);
    });
  }
  // The icon, also at /favicon.ico where browsers ask for it unprompted (swagger-ui's /docs
  // too): an SVG answered with its own type, which browsers read whatever the name says.
  const icon = load('favicon.svg', 'image/svg+xml');
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, { schema: { hide: true }, config: { access: 'public' } }, async (_request, reply) =>
      reply
        .header('etag', icon.etag)
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .type(icon.type)
        .send(icon.body),
    );
  }
  return {
    cssUrl: assets['app.css'].url,
    jsUrl: assets['app.js'].url,
    extraCss: [assets['viewer.css'].url],
    extraJs: [assets['viewer.js'].url],
    iconUrl: `/favicon.svg?v=${icon.etag.slice(1, -1)}`,
  };
}

interface ApiAnswer<T> {
  status: number;
  body: T;
}

function apiError(answer: ApiAnswer<unknown>): SafeHtml {
  const message = (answer.body as { error?: { message?: string } } | null)?.error?.message ?? `the API answered ${answer.status}`;
  const hint = answer.status === 401 ? ' Paste your token in the token box (on the team or organiser page).' : '';
  return html`<p class="error" role="alert">${message}${hint}</p>`;
}

/** The server page's page of failed attempts (?errorsOffset=N), 0 when absent or malformed. */
const errorsOffsetOf = (query: { errorsOffset?: string }): number =>
  /^[0-9]{1,8}$/.test(query.errorsOffset ?? '') ? Number(query.errorsOffset) : 0;

export function webRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const assets = registerStaticAssets(app);
    const readGlance = glanceReader(ctx);

    /** The API's answer to a GET with the caller's credentials. */
    async function api<T>(request: FastifyRequest, url: string): Promise<ApiAnswer<T>> {
      const authorization = request.headers.authorization;
      const res = await app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
      let body: unknown = null;
      try {
        body = res.body ? JSON.parse(res.body) : null;
      } catch {
        body = { error: { message: res.body.slice(0, 300) } };
      }
      return { status: res.statusCode, body: body as T };
    }

    const sendPage = (reply: FastifyReply, path: string, title: string, body: SafeHtml, role?: Role) =>
      reply.headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(page(assets, { title, path, body, role }));
    /** A page about one challenge, or the not-found page when there is no such challenge. */
    const challengeOr404 = async (slug: string) =>
      /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await ctx.repos.challenges.bySlug(slug) : null;
    const sendFragment = (reply: FastifyReply, status: number, body: SafeHtml) =>
      reply.status(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(body.value);
    const ok = (status: number) => status === 200 || status === 202;

    app.get('/', HIDDEN, async (_request, reply) => sendPage(reply, '/', 'Home', homePageBody(await ctx.repos.challenges.list())));
    app.get('/team', HIDDEN, async (_request, reply) =>
      sendPage(reply, '/team', 'Team', teamPageBody(await ctx.repos.challenges.list()), 'team'),
    );
    app.get<{ Querystring: { closed?: string } }>('/organiser', HIDDEN, async (request, reply) =>
      sendPage(
        reply,
        '/organiser',
        'Organiser',
        organiserPageBody(await ctx.repos.challenges.list(), request.query.closed === 'show'),
        'organiser',
      ),
    );

    // A server's page is a team's page, or the organiser's when opened from the organiser's pages (?as=organiser).
    app.get<{ Params: { id: string }; Querystring: { as?: string; errorsOffset?: string } }>(
      '/servers/:id',
      HIDDEN,
      async (request, reply) => {
        const id = Number(request.params.id);
        if (!Number.isSafeInteger(id) || id < 1) return reply.callNotFound();
        const role: Role = request.query.as === 'organiser' ? 'organiser' : 'team';
        return sendPage(
          reply,
          role === 'organiser' ? '/organiser' : '/team',
          `Server ${id}`,
          serverPageBody(id, errorsOffsetOf(request.query)),
          role,
        );
      },
    );

    app.get<{ Params: { slug: string }; Querystring: { state?: string; offset?: string; server?: string; outcome?: string } }>(
      '/challenges/:slug/articles',
      HIDDEN,
      async (request, reply) => {
        const challenge = await challengeOr404(request.params.slug);
        if (!challenge) return reply.callNotFound();
        const state = ARTICLE_STATES.find((s) => s === request.query.state) ?? null;
        const offset = Math.max(0, Math.floor(Number(request.query.offset ?? 0)) || 0);
        return sendPage(
          reply,
          '/organiser',
          `Articles of ${challenge.slug}`,
          articlesPageBody(challenge, state, offset, serverOutcomeFilter(request.query)),
          'organiser',
        );
      },
    );
    app.get<{ Params: { slug: string } }>('/challenges/:slug/settings', HIDDEN, async (request, reply) => {
      const challenge = await challengeOr404(request.params.slug);
      if (!challenge) return reply.callNotFound();
      return sendPage(reply, '/organiser', `Settings of ${challenge.slug}`, settingsPageBody(challenge), 'organiser');
    });
    // The organiser page's "open a report by name" form.
    app.get<{ Querystring: { name?: string } }>('/testsuites', HIDDEN, async (request, reply) => {
      const name = (request.query.name ?? '').trim().toLowerCase();
      return reply.redirect(
        absoluteUrlOf(request, ctx.config, /^[a-z0-9][a-z0-9-]{0,56}$/.test(name) ? `/testsuites/${name}` : '/organiser'),
      );
    });
    app.get<{ Params: { name: string }; Querystring: { server?: string } }>('/testsuites/:name', HIDDEN, async (request, reply) => {
      const name = request.params.name;
      if (!/^[a-z0-9][a-z0-9-]{0,56}$/.test(name)) return reply.callNotFound();
      const server = /^\d{1,10}$/.test(request.query.server ?? '') ? request.query.server : undefined;
      return sendPage(reply, '/organiser', `Test suite ${name}`, testsuitePageBody(name, server));
    });
    app.get<{ Params: { id: string } }>('/articles/:id', HIDDEN, async (request, reply) => {
      // A live article is public; a challenge's needs a token, so without one the page says so instead of asking.
      const open = await app.inject({ method: 'HEAD', url: `/api/articles/${encodeURIComponent(request.params.id)}` });
      return sendPage(reply, '/', 'Article', articlePageBody(request.params.id, !ok(open.statusCode)));
    });
    app.get<{ Params: { slug: string; task: string }; Querystring: Record<string, string> }>(
      '/challenges/:slug/leaderboard/:task',
      HIDDEN,
      async (request, reply) => {
        const challenge = await challengeOr404(request.params.slug);
        const published = challenge?.phase === 'closed' && challenge.leaderboardPublished;
        return sendPage(
          reply,
          '/organiser',
          `${request.params.task} leaderboard`,
          leaderboardPageBody(request.params.slug, request.params.task, request.query, published),
        );
      },
    );

    app.get<{ Params: { id: string } }>('/fragments/articles/:id', HIDDEN, async (request, reply) => {
      const answer = await api<ArticleJson>(request, `/api/articles/${encodeURIComponent(request.params.id)}`);
      if (!ok(answer.status)) return sendFragment(reply, answer.status, apiError(answer));
      // The challenge's tasks decide which answers show (no empty viewer for a task it does not have).
      const challenge = await ctx.repos.challenges.bySlug(answer.body.challenge);
      return sendFragment(reply, 200, articleFragment(answer.body, challenge?.tasks));
    });

    app.get<{ Params: { id: string }; Querystring: { errorsOffset?: string } }>(
      '/fragments/servers/:id',
      HIDDEN,
      async (request, reply) => {
        const page = `errorsLimit=${ERRORS_PAGE_SIZE}&errorsOffset=${errorsOffsetOf(request.query)}`;
        const answer = await api<ServerJson>(request, `/api/servers/${encodeURIComponent(request.params.id)}?${page}`);
        return sendFragment(
          reply,
          answer.status,
          answer.status === 200 ? serverFragment(answer.body, ctx.config.checkTimeoutSeconds) : apiError(answer),
        );
      },
    );

    app.get('/fragments/team/servers', HIDDEN, async (request, reply) => {
      const lists = [];
      for (const challenge of await ctx.repos.challenges.list()) {
        const answer = await api<Parameters<typeof teamServersFragment>[0][number]['servers']>(
          request,
          `/api/challenges/${challenge.slug}/servers`,
        );
        if (answer.status !== 200) return sendFragment(reply, answer.status, apiError(answer));
        lists.push({ challenge, servers: answer.body });
      }
      return sendFragment(reply, 200, teamServersFragment(lists));
    });

    app.get<{ Querystring: { closed?: string } }>('/fragments/organiser', HIDDEN, async (request, reply) => {
      // Read from the repositories, not through the API: the organiser's only.
      const principal = await ctx.auth.principal(request);
      if (principal.role !== 'admin') {
        const status = principal.role === 'anonymous' ? 401 : 403;
        return sendFragment(
          reply,
          status,
          html`<p class="error" role="alert">The glance is the organiser's: ${status === 401 ? 'no token was sent.' : 'this token is not the organiser token.'} Paste the organiser token in the token box.</p>`,
        );
      }
      const showClosed = request.query.closed === 'show';
      const { challenges } = await readGlance({ showClosed });
      return sendFragment(reply, 200, organiserFragment(challenges, { showClosed }));
    });

    app.get<{ Params: { slug: string }; Querystring: { state?: string; offset?: string; server?: string; outcome?: string } }>(
      '/fragments/challenges/:slug/articles',
      HIDDEN,
      async (request, reply) => {
        const state: ArticleListState | undefined = ARTICLE_STATES.find((s) => s === request.query.state);
        const offset = Math.max(0, Math.floor(Number(request.query.offset ?? 0)) || 0);
        const by = serverOutcomeFilter(request.query);
        const query = new URLSearchParams({
          limit: String(ARTICLES_PAGE_SIZE),
          offset: String(offset),
          ...(state ? { state } : {}),
          ...(by ? { server: String(by.server), outcome: by.outcome } : {}),
        });
        const answer = await api<ArticleListJson>(
          request,
          `/api/challenges/${encodeURIComponent(request.params.slug)}/articles?${query.toString()}`,
        );
        return sendFragment(reply, answer.status, answer.status === 200 ? articlesFragment(answer.body) : apiError(answer));
      },
    );

    app.get<{ Params: { id: string } }>('/fragments/servers/:id/export', HIDDEN, async (request, reply) => {
      const answer = await api<ServerJson>(request, `/api/servers/${encodeURIComponent(request.params.id)}`);
      return sendFragment(reply, answer.status, answer.status === 200 ? exportFragment(answer.body, formatsFor) : apiError(answer));
    });

    app.get<{ Params: { name: string }; Querystring: { server?: string } }>(
      '/fragments/testsuites/:name',
      HIDDEN,
      async (request, reply) => {
        const name = request.params.name;
        const run = await api<SuiteProgressJson>(request, `/api/testsuites/${encodeURIComponent(name)}`);
        if (run.status !== 200) return sendFragment(reply, run.status, apiError(run));
        const wanted = Number(request.query.server);
        const chosen = run.body.servers.find((s) => s.serverId === wanted || s.sourceServerId === wanted) ?? run.body.servers[0];
        const report = await api<
          SuiteReport & {
            server: { serverId: number; sourceServerId: number; team: string };
            progress: SuiteProgressJson['servers'][number]['progress'];
          }
        >(request, `/api/testsuites/${encodeURIComponent(name)}/report?server=${chosen.serverId}`);
        if (report.status !== 200) return sendFragment(reply, report.status, apiError(report));
        const r = report.body;
        const shown = {
          serverId: r.server.serverId,
          sourceServerId: r.server.sourceServerId,
          team: r.server.team,
          items: run.body.items,
          progress: r.progress,
          report: r,
        };
        return sendFragment(reply, 200, testsuiteFragment(run.body, chosen.serverId, reportSections(shown, 3)));
      },
    );

    app.get<{ Params: { slug: string; task: string }; Querystring: Record<string, string> }>(
      '/fragments/challenges/:slug/leaderboard/:task',
      HIDDEN,
      async (request, reply) => {
        const { slug, task } = request.params;
        const answer = await api<BoardJson>(
          request,
          `/api/challenges/${encodeURIComponent(slug)}/scores/${encodeURIComponent(task)}${scoreQueryString(request.query)}`,
        );
        if (answer.status !== 200) return sendFragment(reply, answer.status, apiError(answer));
        // The API said yes, so the caller may read; only the organiser gets the publication switch.
        const principal = await ctx.auth.principal(request);
        const challenge = principal.role === 'admin' ? await ctx.repos.challenges.bySlug(slug) : null;
        // Export buttons where the export route would answer: the organiser's all, a team's its own.
        const exports =
          principal.role === 'admin' ? { all: true as const } : principal.role === 'team' ? { team: principal.teamName } : undefined;
        return sendFragment(
          reply,
          200,
          leaderboardFragment(slug, answer.body, {
            ...(exports ? { exports } : {}),
            ...(challenge ? { publish: challenge } : {}),
            fullAxes: fullAxes(request.query),
          }),
        );
      },
    );
  };
}
