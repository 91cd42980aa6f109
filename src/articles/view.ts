// What `GET /api/articles/:id` answers, built in one place: the route sends it, and the
// completion callback posts exactly the same JSON (so a client can use one parser for both).
// Which servers a caller may see of an article is decided here too, once, for every route
// that shows answers (the article, its consensus, one server's response).
import type { Principal } from '../auth/principal.ts';
import { LIVE_SLUG } from '../challenges/repository.ts';
import { notFound } from '../http/api-error.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { AnswerRepository } from './answer-repository.ts';
import { voteView, type ParsedVote, type VoteView } from './consensus.ts';
import type { Article } from './repository.ts';
import { describeProgress, progressOf, statusOf, type ArticleProgress, type ArticleServerState, type ArticleStatus } from './status.ts';

export type ShownServer = Omit<ArticleServerState, 'teamId'>;

export interface ArticleView {
  id: string;
  organiserId: string | null;
  challenge: string;
  status: ArticleStatus;
  /** How many servers answered and failed, with the same words as the organiser's list; only when the caller sees every server. */
  progress?: ArticleProgress & { summary: string };
  sourceFormat: string;
  /** Left out with ?text=false. */
  text?: string;
  createdAt: Date;
  servers: ShownServer[];
  consensus?: VoteView;
}

/** Whether a server (by its team) may be shown to the caller. */
export type TeamFilter = (teamId: number) => boolean;

/**
 * Live articles are public; a challenge article needs the organiser or a team taking part
 * (which sees its own servers only). Anyone else gets the same 404 as for a missing article.
 */
export async function visibleServerFilter(
  servers: Pick<ServerRepository, 'teamHasServerIn'>,
  principal: Principal,
  article: Article,
): Promise<TeamFilter> {
  if (article.challenge === LIVE_SLUG || principal.role === 'admin') return () => true;
  if (principal.role === 'team' && (await servers.teamHasServerIn(principal.teamId, article.challengeId))) {
    return (teamId) => teamId === principal.teamId;
  }
  throw notFound(`article ${article.id}`);
}

const DEFAULT_VOTE: ParsedVote = { weights: {}, threshold: 0.5 };

/**
 * The article with the shown servers' states and answers. The status counts every server
 * the article was sent to (a team must not read "done" while others still work, nor learn
 * more than that); the consensus counts the shown servers only.
 */
export async function articleView(
  answers: AnswerRepository,
  article: Article,
  visible: TeamFilter,
  vote: ParsedVote = DEFAULT_VOTE,
  opts: { text?: boolean } = {},
): Promise<ArticleView> {
  const all = await answers.serverStates(article.id);
  const progress = progressOf(all);
  const status = statusOf(progress);
  const shownStates = all.filter((s) => visible(s.teamId));
  const view: ArticleView = {
    id: article.id,
    organiserId: article.organiserId,
    challenge: article.challenge,
    status,
    sourceFormat: article.sourceFormat,
    ...(opts.text === false ? {} : { text: article.text }),
    createdAt: article.createdAt,
    servers: shownStates.map(({ teamId: _t, ...rest }) => rest),
  };
  // A team sees its own servers: counts over the others would say more than "done" does.
  if (shownStates.length === all.length) view.progress = { ...progress, summary: describeProgress(progress) };
  const consensus = voteView(shownStates, vote);
  if (consensus) view.consensus = consensus;
  return view;
}
