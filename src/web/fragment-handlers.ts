// What each fragment route answers (routes.ts registers them): a piece of a page, loaded by
// static/app.js with the token the browser keeps. A fragment asks the JSON API in-process
// with the caller's token and renders its answer, or its refusal; what it reads beside the
// API (a challenge's tasks, the caller's role, the organiser's glance) changes how it shows,
// never what the caller may see.
import type { Config } from '../config.ts';
import type { Authenticator } from '../auth/principal.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import { ARTICLE_STATES, type ArticleListState } from '../articles/repository.ts';
import { formatsFor } from '../articles/export-formats.ts';
import { MAX_OFFSET } from '../articles/list-routes.ts';
import type { SuiteReport } from '../testsuites/report.ts';
import { html } from './html.ts';
import { answered, apiError, sendFragment, type InProcessApi } from './html-answers.ts';
import { glanceReader, type Glance, type GlanceRepositories } from './glance.ts';
import { articleFragment, type ArticleJson } from './pages/article.ts';
import {
  articlesFragment,
  articlesOffsetTooFar,
  ARTICLES_PAGE_SIZE,
  serverOutcomeFilter,
  type ArticleListJson,
} from './pages/challenge.ts';
import { fullAxes, leaderboardFragment, type BoardJson } from './pages/leaderboard.ts';
import { scoreQueryString } from './pages/leaderboard-options.ts';
import { organiserFragment } from './pages/organiser.ts';
import { reportSections } from './pages/suite-report.ts';
import { ERRORS_PAGE_SIZE, exportFragment, serverFragment, teamServersFragment, type ServerJson } from './pages/team.ts';
import { testsuiteFragment, type SuiteProgressJson } from './pages/testsuite.ts';
import * as S from './route-schemas.ts';

/** What the fragments need, handed over by the composition root. */
export interface FragmentDeps {
  config: Pick<Config, 'checkTimeoutSeconds'>;
  challenges: Pick<ChallengeRepository, 'list' | 'bySlug'>;
  auth: Pick<Authenticator, 'principal'>;
  /** What the organiser's glance reads (glance.ts). */
  glance: GlanceRepositories;
}

/** The JSON report of a test suite on one server, as GET /api/testsuites/:name/report answers it. */
type SuiteReportJson = SuiteReport & {
  server: { serverId: number; sourceServerId: number; team: string };
  progress: SuiteProgressJson['servers'][number]['progress'];
};

export class FragmentHandlers {
  private readonly readGlance: (opts: { showClosed: boolean }) => Promise<Glance>;

  constructor(
    private readonly deps: FragmentDeps,
    private readonly api: InProcessApi,
  ) {
    this.readGlance = glanceReader(deps.glance);
  }

  readonly article: S.WebHandler<S.IdRequest> = async (request, reply) => {
    const answer = await this.api.get<ArticleJson>(request, `/api/articles/${encodeURIComponent(request.params.id)}`);
    if (!answered(answer.status)) return sendFragment(reply, answer.status, apiError(answer));
    // The challenge's tasks decide which answers show (no empty viewer for a task it does not have).
    const challenge = await this.deps.challenges.bySlug(answer.body.challenge);
    return sendFragment(reply, 200, articleFragment(answer.body, challenge?.tasks));
  };

  readonly server: S.WebHandler<S.ServerRequest> = async (request, reply) => {
    const page = `errorsLimit=${ERRORS_PAGE_SIZE}&errorsOffset=${S.errorsOffsetOf(request.query)}`;
    const answer = await this.api.get<ServerJson>(request, `/api/servers/${encodeURIComponent(request.params.id)}?${page}`);
    const body = answer.status === 200 ? serverFragment(answer.body, this.deps.config.checkTimeoutSeconds) : apiError(answer);
    return sendFragment(reply, answer.status, body);
  };

  /** The caller's servers in every challenge, one list per challenge. */
  readonly teamServers: S.WebHandler = async (request, reply) => {
    const lists = [];
    for (const challenge of await this.deps.challenges.list()) {
      const answer = await this.api.get<Parameters<typeof teamServersFragment>[0][number]['servers']>(
        request,
        `/api/challenges/${challenge.slug}/servers`,
      );
      if (answer.status !== 200) return sendFragment(reply, answer.status, apiError(answer));
      lists.push({ challenge, servers: answer.body });
    }
    return sendFragment(reply, 200, teamServersFragment(lists));
  };

  /** The organiser's glance, read from the repositories, not through the API: the organiser's only. */
  readonly organiser: S.WebHandler<S.OrganiserRequest> = async (request, reply) => {
    const principal = await this.deps.auth.principal(request);
    if (principal.role !== 'admin') {
      const status = principal.role === 'anonymous' ? 401 : 403;
      return sendFragment(
        reply,
        status,
        html`<p class="error" role="alert">The glance is the organiser's: ${status === 401 ? 'no token was sent.' : 'this token is not the organiser token.'} Paste the organiser token in the token box.</p>`,
      );
    }
    const showClosed = request.query.closed === 'show';
    const { challenges } = await this.readGlance({ showClosed });
    return sendFragment(reply, 200, organiserFragment(challenges, { showClosed }));
  };

  /**
   * A page of a challenge's articles, through the API's paging by key. The first page of a
   * state (pending, running, done, failed) is asked for with `after=0` — the same articles,
   * from the first — so the API does not count that state over every article of the
   * challenge each time the page polls (every 5 s); the whole list and a server's outcome
   * come with their total, which the API reads from the index and counters. An old link's
   * offset is followed up to the API's limit, and past it explained rather than refused.
   */
  readonly articles: S.WebHandler<S.ArticlesRequest> = async (request, reply) => {
    const state: ArticleListState | undefined = ARTICLE_STATES.find((s) => s === request.query.state);
    const at = S.articlesPositionOf(request.query);
    const by = serverOutcomeFilter(request.query);
    if (at.offset > MAX_OFFSET)
      return sendFragment(reply, 200, articlesOffsetTooFar(request.params, state ?? null, by, at.offset, MAX_OFFSET));
    const after = at.after ?? (state ? '0' : null);
    const query = new URLSearchParams({
      limit: String(ARTICLES_PAGE_SIZE),
      ...(after !== null ? { after } : {}),
      ...(at.offset > 0 ? { offset: String(at.offset) } : {}),
      ...(state ? { state } : {}),
      ...(by ? { server: String(by.server), outcome: by.outcome } : {}),
    });
    const url = `/api/challenges/${encodeURIComponent(request.params.slug)}/articles?${query.toString()}`;
    const answer = await this.api.get<ArticleListJson>(request, url);
    return sendFragment(reply, answer.status, answer.status === 200 ? articlesFragment(answer.body, at) : apiError(answer));
  };

  readonly serverExport: S.WebHandler<S.IdRequest> = async (request, reply) => {
    const answer = await this.api.get<ServerJson>(request, `/api/servers/${encodeURIComponent(request.params.id)}`);
    return sendFragment(reply, answer.status, answer.status === 200 ? exportFragment(answer.body, formatsFor) : apiError(answer));
  };

  /** A test suite's progress and its report on the chosen server (?server=, the copy or the registered one; else the first). */
  readonly suite: S.WebHandler<S.SuiteRequest> = async (request, reply) => {
    const name = request.params.name;
    const run = await this.api.get<SuiteProgressJson>(request, `/api/testsuites/${encodeURIComponent(name)}`);
    if (run.status !== 200) return sendFragment(reply, run.status, apiError(run));
    const wanted = Number(request.query.server);
    const chosen = run.body.servers.find((s) => s.serverId === wanted || s.sourceServerId === wanted) ?? run.body.servers[0];
    const url = `/api/testsuites/${encodeURIComponent(name)}/report?server=${chosen.serverId}`;
    const report = await this.api.get<SuiteReportJson>(request, url);
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
  };

  readonly leaderboard: S.WebHandler<S.LeaderboardRequest> = async (request, reply) => {
    const { slug, task } = request.params;
    const answer = await this.api.get<BoardJson>(
      request,
      `/api/challenges/${encodeURIComponent(slug)}/scores/${encodeURIComponent(task)}${scoreQueryString(request.query)}`,
    );
    if (answer.status !== 200) return sendFragment(reply, answer.status, apiError(answer));
    // The API said yes, so the caller may read; only the organiser gets the publication switch.
    const principal = await this.deps.auth.principal(request);
    const challenge = principal.role === 'admin' ? await this.deps.challenges.bySlug(slug) : null;
    // Export buttons where the export route would answer: the organiser's all, a team's its own.
    const exports =
      principal.role === 'admin' ? { all: true as const } : principal.role === 'team' ? { team: principal.teamName } : undefined;
    const options = { ...(exports ? { exports } : {}), ...(challenge ? { publish: challenge } : {}), fullAxes: fullAxes(request.query) };
    return sendFragment(reply, 200, leaderboardFragment(slug, answer.body, options));
  };
}
