// The official boards kept (issue 39): each task's board as it was at the close, stored and
// answered as stored, so what arrives in a post-challenge phase never changes the official
// results. A board is taken at the close (after it commits: nothing of the teams' can change
// then), again when the organiser loads a gold standard or a baseline while the challenge
// stays closed (the official results are the close's runs against the organiser's gold),
// and a last time just before the post phase opens. From then on it is never taken again.
import type { FastifyBaseLogger } from 'fastify';
import { hasClosed, type Challenge } from '../challenges/repository.ts';
import { ApiError } from '../http/api-error.ts';
import type { TaskName } from '../families/registry.ts';
import type { Leaderboard } from './leaderboard.ts';
import type { OfficialBoardRepository } from './official-board-repository.ts';
import type { LeaderboardService } from './service.ts';

/** The scores API's answer for `?board=official`: the stored board, said to be official and of which close. */
export type OfficialAnswer = Leaderboard & { board: 'official'; closedAt: string; takenAt: string };

/** What a close or the opening of a post phase took: the tasks with a board, and those without gold. */
export interface TakenBoards {
  taken: TaskName[];
  withoutGold: TaskName[];
}

/** The challenge is closed and its post phase has not opened: its official boards follow the organiser's gold and baselines. */
const officialBoardsOpen = (c: Challenge): boolean => c.phase === 'closed' && c.officialClosedAt !== null && c.postOpenedAt === null;

export class OfficialBoards {
  constructor(
    private readonly repo: OfficialBoardRepository,
    private readonly service: Pick<LeaderboardService, 'leaderboard' | 'gold'>,
  ) {}

  /** Takes the task's board with the default options; false when the task has no gold. */
  async take(challenge: Challenge, task: TaskName): Promise<boolean> {
    if (!(await this.service.gold.goldHeading(challenge.id, task))) return false;
    const board = await this.service.leaderboard(challenge, task, {}, {});
    return await this.repo.put(challenge.id, task, board);
  }

  /** Takes every task's board; a failure is logged, not thrown (the close stands, and a read takes the board while still closed). */
  async takeAll(challenge: Challenge, log: FastifyBaseLogger): Promise<TakenBoards> {
    const taken: TakenBoards = { taken: [], withoutGold: [] };
    for (const task of challenge.tasks) {
      try {
        const stored = await this.take(challenge, task);
        (stored ? taken.taken : taken.withoutGold).push(task);
      } catch (error) {
        log.error({ err: error, challenge: challenge.slug, task }, 'the official board could not be taken; it is taken when first read');
      }
    }
    return taken;
  }

  /** While the official boards follow the organiser's loads, take this task's again. */
  async retakeIfOpen(challenge: Challenge, task: TaskName): Promise<void> {
    if (officialBoardsOpen(challenge)) await this.take(challenge, task);
  }

  /** `?board=official`: the stored board (taken now if the challenge is closed and none was stored yet). */
  async read(challenge: Challenge, task: TaskName): Promise<OfficialAnswer> {
    if (!hasClosed(challenge) || challenge.officialClosedAt === null) {
      throw new ApiError(
        'no_official_board',
        `challenge "${challenge.slug}" has not closed, so it has no official board yet: it is stored at the close (PATCH {"phase": "closed"}); the live board is this route without board=official`,
      );
    }
    let stored = await this.repo.get(challenge.id, task);
    if (!stored && officialBoardsOpen(challenge) && (await this.take(challenge, task))) stored = await this.repo.get(challenge.id, task);
    if (!stored) {
      const why = officialBoardsOpen(challenge)
        ? `no ${task} gold standard is loaded yet; the official board is taken when the organiser loads it (PUT /api/challenges/${challenge.slug}/gold/${task})`
        : `no ${task} gold standard was loaded before its post-challenge phase opened`;
      throw new ApiError(
        'no_official_board',
        `challenge "${challenge.slug}" has no official ${task} board: ${why}; the live board is this route without board=official`,
      );
    }
    return { ...stored.board, board: 'official', closedAt: stored.closedAt.toISOString(), takenAt: stored.takenAt.toISOString() };
  }
}
