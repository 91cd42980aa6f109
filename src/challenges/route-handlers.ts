// What each of the challenges' routes does (routes.ts registers them, route-schemas.ts types
// them): create, list, show and change a challenge. A phase change reaches the queues
// through dispatch; when Redis is down the change is stored and the answer is a 202.
import type { Config } from '../config.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import { queuedLaterNotice } from '../http/unavailable.ts';
import { absoluteUrlOf } from '../http/public-url.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { principalOf } from '../auth/access.ts';
import type { FastifyBaseLogger } from 'fastify';
import { hasClosed, type Challenge, type ChallengeRepository, type Phase } from './repository.ts';
import { challengeOf } from './lookup.ts';
import type * as S from './route-schemas.ts';

/** What the challenges' routes need, handed over by the composition root. */
export interface ChallengeRouteDeps {
  config: Pick<Config, 'publicUrl'>;
  challenges: Pick<ChallengeRepository, 'create' | 'list' | 'bySlug' | 'change' | 'counts' | 'phaseHistory'>;
  /**
   * Dispatch's `phaseChanged` (dispatch/service.ts), named by shape: dispatch builds on the
   * challenges, not the other way. False when Redis did not answer (the change reaches the
   * queues later).
   */
  dispatch: { phaseChanged(challenge: Challenge): Promise<boolean> };
  /**
   * The leaderboard's official boards (leaderboard/official-boards.ts), by shape as dispatch:
   * taken at a close, and just before a post-challenge phase first opens.
   */
  official: { takeAll(challenge: Challenge, log: FastifyBaseLogger): Promise<{ taken: string[]; withoutGold: string[] }> };
}

/** The phases a reopening goes back to. */
const isOpenPhase = (phase: Phase | undefined) => phase === 'setup' || phase === 'test';

/** The phase change asked for, refused when it is not one of the documented steps. */
function checkPhaseChange(before: Challenge, phase: Phase | undefined, reopen: boolean | undefined): void {
  if (phase === 'post' && !hasClosed(before)) {
    throw new ApiError(
      'not_closed',
      `the post-challenge phase follows the close; "${before.slug}" is in phase "${before.phase}": close it first (PATCH {"phase": "closed"})`,
    );
  }
  if (hasClosed(before) && isOpenPhase(phase) && reopen !== true) {
    throw new ApiError(
      'closed',
      `challenge "${before.slug}" is ${before.phase === 'post' ? 'in its post-challenge phase' : 'closed'}; to reopen it, send {"phase": "${phase}", "reopen": true} (its official boards are taken again at the next close)`,
    );
  }
}

export class ChallengeHandlers {
  constructor(private readonly deps: ChallengeRouteDeps) {}

  /**
   * A challenge as the API shows it: with its counts, and for the organiser how many of its
   * articles are scored and background (teams are not told that background articles exist).
   */
  private async view(c: Challenge, organiser: boolean) {
    return { ...c, counts: await this.deps.challenges.counts(c.id, { marks: organiser }) };
  }

  /** One challenge with its phase history (who changed the phase, when, from where). */
  private async detail(c: Challenge, organiser: boolean) {
    return { ...(await this.view(c, organiser)), phaseHistory: await this.deps.challenges.phaseHistory(c.id) };
  }

  readonly create: RouteHandler<typeof S.CreateChallenge> = async (request, reply) => {
    const created = await this.deps.challenges.create(request.body);
    if (!created) throw conflict(`a challenge with slug "${request.body.slug}" exists already; choose another slug`);
    reply.header('location', absoluteUrlOf(request, this.deps.config, `/api/challenges/${encodeURIComponent(created.slug)}`));
    return reply.status(201).send(await this.view(created, true));
  };

  readonly list: RouteHandler<typeof S.ListChallenges> = async (request) => {
    const organiser = principalOf(request).role === 'admin';
    return await Promise.all((await this.deps.challenges.list()).map((c) => this.view(c, organiser)));
  };

  readonly show: RouteHandler<typeof S.ChallengeBySlug> = async (request) => {
    const c = await challengeOf(this.deps.challenges, request.params);
    return await this.detail(c, principalOf(request).role === 'admin');
  };

  readonly change: RouteHandler<typeof S.ChangeChallenge> = async (request, reply) => {
    const { challenges, dispatch } = this.deps;
    const before = await challengeOf(challenges, request.params);
    const { phase, reopen, ...settings } = request.body;
    checkPhaseChange(before, phase, reopen);
    const closedAfter = hasClosed({ phase: phase ?? before.phase });
    if (settings.leaderboardPublished === true && !closedAfter) {
      throw new ApiError(
        'not_closed',
        `leaderboards are published once the challenge is closed; "${before.slug}" is in phase "${phase ?? before.phase}": close it first (PATCH {"phase": "closed"})`,
      );
    }
    // Reopening withdraws a publication: the answers may change until the next close. The
    // answer says so (publicationWithdrawn), so the organiser is never left unaware.
    const withdrawn = !closedAfter && before.leaderboardPublished;
    if (withdrawn) settings.leaderboardPublished = false;
    // The post phase first opening: the official boards are taken a last time while the
    // challenge is still closed (nothing of the teams' has changed since the close).
    const opensPost = phase === 'post' && before.phase === 'closed' && before.postOpenedAt === null;
    let official = opensPost ? await this.deps.official.takeAll(before, request.log) : undefined;
    const after = await challenges.change(
      before.slug,
      settings,
      phase !== undefined ? { to: phase, by: 'organiser', address: request.ip } : undefined,
    );
    if (!after) throw notFound(`challenge "${request.params.slug}"`);
    let queued = true;
    // A close from setup or test: the official boards are taken once it has committed.
    if (after.phase === 'closed' && isOpenPhase(before.phase)) official = await this.deps.official.takeAll(after, request.log);
    if (after.phase !== before.phase) {
      queued = await dispatch.phaseChanged(after);
      request.log.info({ challenge: after.slug, from: before.phase, to: after.phase, queued }, 'challenge phase changed');
    }
    const view = {
      ...(await this.detail(after, true)),
      ...(withdrawn ? { publicationWithdrawn: true } : {}),
      ...(official ? { officialBoards: official } : {}),
    };
    if (queued) return view;
    return reply.status(202).send({ ...view, notice: queuedLaterNotice('the new phase is stored') });
  };
}
