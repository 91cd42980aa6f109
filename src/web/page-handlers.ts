// What each page route answers (routes.ts registers them): the page shell (layout.ts) around
// a page's body (pages/), which loads its fragments with the browser's token. A page reads
// no more than it needs to be laid out (the challenges, to list them or to know one exists);
// everything a caller may or may not see comes through the fragments.
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { hasClosed, type ChallengeRepository } from '../challenges/repository.ts';
import { ARTICLE_STATES } from '../articles/repository.ts';
import { absoluteUrlOf } from '../http/public-url.ts';
import type { SafeHtml } from './html.ts';
import { answered, SECURITY_HEADERS, type InProcessApi } from './html-answers.ts';
import { page, type Role, type StaticAssets } from './layout.ts';
import { articlePageBody, homePageBody } from './pages/article.ts';
import { articlesPageBody, serverOutcomeFilter, settingsPageBody } from './pages/challenge.ts';
import { leaderboardPageBody } from './pages/leaderboard.ts';
import { organiserPageBody } from './pages/organiser.ts';
import { serverPageBody, teamPageBody } from './pages/team.ts';
import { testsuitePageBody } from './pages/testsuite.ts';
import * as S from './route-schemas.ts';

/** What the pages need, handed over by the composition root. */
export interface PageDeps {
  config: Pick<Config, 'publicUrl'>;
  challenges: Pick<ChallengeRepository, 'list' | 'bySlug'>;
}

/** A test suite's name as the run's routes take it (its challenge is suite-<name>). */
const SUITE_NAME = /^[a-z0-9][a-z0-9-]{0,56}$/;

export class PageHandlers {
  constructor(
    private readonly deps: PageDeps,
    private readonly assets: StaticAssets,
    private readonly api: InProcessApi,
  ) {}

  private send(reply: FastifyReply, path: string, title: string, body: SafeHtml, role?: Role) {
    return reply.headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(page(this.assets, { title, path, body, role }));
  }

  /** The challenge a page is about, or null (the page answers not found) when there is no such challenge. */
  private async challengeOrNull(slug: string) {
    return /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await this.deps.challenges.bySlug(slug) : null;
  }

  readonly home: S.WebHandler = async (_request, reply) => this.send(reply, '/', 'Home', homePageBody(await this.deps.challenges.list()));

  readonly team: S.WebHandler = async (_request, reply) =>
    this.send(reply, '/team', 'Team', teamPageBody(await this.deps.challenges.list()), 'team');

  readonly organiser: S.WebHandler<S.OrganiserRequest> = async (request, reply) =>
    this.send(
      reply,
      '/organiser',
      'Organiser',
      organiserPageBody(await this.deps.challenges.list(), request.query.closed === 'show'),
      'organiser',
    );

  /** A server's page is a team's page, or the organiser's when opened from the organiser's pages (?as=organiser). */
  readonly server: S.WebHandler<S.ServerRequest> = async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return reply.callNotFound();
    const role: Role = request.query.as === 'organiser' ? 'organiser' : 'team';
    const path = role === 'organiser' ? '/organiser' : '/team';
    return this.send(reply, path, `Server ${id}`, serverPageBody(id, S.errorsOffsetOf(request.query)), role);
  };

  readonly articles: S.WebHandler<S.ArticlesRequest> = async (request, reply) => {
    const challenge = await this.challengeOrNull(request.params.slug);
    if (!challenge) return reply.callNotFound();
    const state = ARTICLE_STATES.find((s) => s === request.query.state) ?? null;
    const body = articlesPageBody(challenge, state, S.articlesPositionOf(request.query), serverOutcomeFilter(request.query));
    return this.send(reply, '/organiser', `Articles of ${challenge.slug}`, body, 'organiser');
  };

  readonly settings: S.WebHandler<S.ChallengeRequest> = async (request, reply) => {
    const challenge = await this.challengeOrNull(request.params.slug);
    if (!challenge) return reply.callNotFound();
    return this.send(reply, '/organiser', `Settings of ${challenge.slug}`, settingsPageBody(challenge), 'organiser');
  };

  /** The organiser page's "open a report by name" form: to the suite's page, or back to the organiser's. */
  readonly suiteByName: S.WebHandler<S.SuiteByNameRequest> = async (request, reply) => {
    const name = (request.query.name ?? '').trim().toLowerCase();
    return reply.redirect(absoluteUrlOf(request, this.deps.config, SUITE_NAME.test(name) ? `/testsuites/${name}` : '/organiser'));
  };

  readonly suite: S.WebHandler<S.SuiteRequest> = async (request, reply) => {
    const name = request.params.name;
    if (!SUITE_NAME.test(name)) return reply.callNotFound();
    const server = /^\d{1,10}$/.test(request.query.server ?? '') ? request.query.server : undefined;
    return this.send(reply, '/organiser', `Test suite ${name}`, testsuitePageBody(name, server));
  };

  readonly article: S.WebHandler<S.IdRequest> = async (request, reply) => {
    // A live article is public; a challenge's needs a token, so without one the page says so instead of asking.
    const status = await this.api.publicStatus(`/api/articles/${encodeURIComponent(request.params.id)}`);
    return this.send(reply, '/', 'Article', articlePageBody(request.params.id, !answered(status)));
  };

  readonly leaderboard: S.WebHandler<S.LeaderboardRequest> = async (request, reply) => {
    const challenge = await this.challengeOrNull(request.params.slug);
    const published = challenge !== null && hasClosed(challenge) && challenge.leaderboardPublished;
    const closedAt = challenge !== null && hasClosed(challenge) ? challenge.officialClosedAt : null;
    const body = leaderboardPageBody(request.params.slug, request.params.task, request.query, published, closedAt);
    return this.send(reply, '/organiser', `${request.params.task} leaderboard`, body);
  };
}
