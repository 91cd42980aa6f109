// Which board a leaderboard page shows, once its challenge has closed: the live board (as
// things stand, runs that arrived after the close marked post-challenge) or the official
// board (stored at the close, `?board=official`, default options only). The switch is a
// plain link, so the page's address says which board it shows.
import { html, type SafeHtml } from '../html.ts';
import { timeElement } from '../time.ts';

/** The page asks for the official board (`?board=official`). */
export const officialAsked = (query: Record<string, string | undefined>): boolean => query.board === 'official';

/** The link between the two boards, and what the one shown is; nothing before the challenge's close. */
export function boardSwitch(slug: string, task: string, query: Record<string, string | undefined>, closedAt: Date | null): SafeHtml | '' {
  if (closedAt === null) return '';
  const path = `/challenges/${encodeURIComponent(slug)}/leaderboard/${encodeURIComponent(task)}`;
  if (officialAsked(query)) {
    return html`<section class="card board-switch" aria-labelledby="board-heading"><h2 id="board-heading">Official board</h2>
<p>The results as they were at the close (${timeElement(closedAt)}), stored then and never recomputed, with the default options. Whatever arrived after the close is on the live board. <a href="${path}" data-board-link="live">Show the live board</a></p></section>`;
  }
  return html`<section class="card board-switch" aria-labelledby="board-heading"><h2 id="board-heading">Live board</h2>
<p>The results as things stand now; runs that arrived after the close (${timeElement(closedAt)}) are marked post-challenge. <a href="${path}?board=official" data-board-link="official">Show the official board, as at the close</a></p></section>`;
}

/** The API's answer says which board it is: a line above the table (nothing before the close). */
export function boardShown(board: { board?: 'live' | 'official'; closedAt?: string; takenAt?: string }): SafeHtml | '' {
  if (board.board === 'official')
    return html`<p class="board-shown" data-board-shown="official">Official board, as at the close (${timeElement(board.closedAt)}); computed ${timeElement(board.takenAt)}.</p>`;
  if (board.board === 'live')
    return html`<p class="board-shown" data-board-shown="live">Live board: everything scored as it stands; the close was ${timeElement(board.closedAt)}.</p>`;
  return '';
}

/** The row's mark when it has something that arrived after the close (live board, post phase opened). */
export const postChallengeMark = (row: { postChallenge?: boolean }): SafeHtml | '' =>
  row.postChallenge ? html` <span class="post-challenge-mark">post-challenge</span>` : '';
