// The `total` of a challenge's article list (list-routes.ts; ArticleRepository.listWithState
// asks) without reading each article's deliveries, where something already kept holds it:
// the whole list is the challenge's articles, counted from the (challenge_id, seq) index
// alone, reading no article row; one server's outcome comes from the delivery counters
// migration 017 keeps, read as the server's page reads them (db/delivery-counts.ts). A
// list by state across servers (pending, running, done, failed) has no such figure: an
// article's state depends on all its deliveries at once, so the repository counts it over
// the whole challenge, and only when its caller asks for a total.
import type { Queryable } from '../db/database.ts';
import { deliveryCounts } from '../db/delivery-counts.ts';
import type { ArticleListFilter } from './repository.ts';

/** The list's total from the index and the counters, or null when only counting every article would say it. */
export async function totalFromAggregates(db: Queryable, challengeId: number, filter: ArticleListFilter): Promise<number | null> {
  if (filter.state !== null) return null;
  const articles = (await db.query<{ n: number }>('select count(*)::int as n from articles where challenge_id = $1', [challengeId]))[0].n;
  if (!filter.server) return articles;
  // One delivery per article and server (its primary key): answered and failed are that
  // server's deliveries in those states; pending, every other article of the challenge.
  const { done, failed } = (await deliveryCounts(db, [filter.server.id])).get(filter.server.id) ?? { done: 0, failed: 0 };
  const outcome = filter.server.outcome;
  return outcome === 'answered' ? done : outcome === 'failed' ? failed : Math.max(0, articles - done - failed);
}
