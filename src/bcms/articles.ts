// Which articles the BCMS read API serves, and how a client names one.
//
// Served: the articles of the `live` challenge — those submitted for on-demand annotation,
// whose answers the REST API shows to anyone. That is what BCMS served: the annotations of
// the articles it had processed for its users. Not served: the articles of challenges, in
// any phase. Their answers are the teams' runs; the organiser publishes results as
// leaderboards and exports, and nothing marks a challenge's answers as public, so they
// stay behind the REST API's access rules. A challenge article is answered exactly like an
// id that does not exist, so the API does not even tell that it exists.
//
// Naming an article: an int is a PubMed id, i.e. the article submitted with that number as
// its id (`POST /api/articles {id: "12345678", …}`); a string is the meta-server's article
// id, or else the id the article was submitted with.
import type { Article, ArticleRepository } from '../articles/repository.ts';
import { LIVE_SLUG, type ChallengeRepository } from '../challenges/repository.ts';
import type { XmlRpcValue } from '../xmlrpc/codec.ts';
import { Fault, FAULT } from './faults.ts';

const HOW_TO_NAME =
  'send the id that POST /api/articles answered (a string), or the id the article was submitted with ' +
  '(an int for a PubMed id, or a string)';

/** What finding a served article reads: the live challenge, then the article by either of its ids. */
export interface ServedArticles {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  articles: Pick<ArticleRepository, 'byId' | 'byOrganiserId'>;
}

/** The article a parameter names, if the API serves it; a fault otherwise. */
export async function servedArticle(repos: ServedArticles, ref: XmlRpcValue, usage: string): Promise<Article> {
  if (typeof ref === 'number') {
    if (!Number.isInteger(ref) || ref < 1) throw new Fault(FAULT.badParams, `a PubMed id is a positive int, not ${ref}: ${usage}`);
  } else if (typeof ref !== 'string' || ref.trim() === '') {
    throw new Fault(FAULT.badParams, `the article is an int (a PubMed id) or a non-empty string (an article id): ${usage}`);
  }
  const live = await repos.challenges.bySlug(LIVE_SLUG);
  const name = String(ref);
  let article = typeof ref === 'string' ? await repos.articles.byId(name, { text: false }) : null;
  if (article?.challenge !== LIVE_SLUG) article = live ? await repos.articles.byOrganiserId(live.id, name) : null;
  if (!article || article.challenge !== LIVE_SLUG) {
    const shown = typeof ref === 'number' ? String(ref) : JSON.stringify(ref);
    throw new Fault(FAULT.unknownArticle, `unknown article ${shown}: no on-demand article has this id; ${HOW_TO_NAME}`);
  }
  return article;
}
