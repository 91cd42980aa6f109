// A closed challenge is frozen: its servers, their answers and the runs stay as they were at
// the close, for everyone, until the organiser reopens it explicitly or opens its
// post-challenge phase (which is not frozen: what arrives then is marked post-challenge).
import { ApiError } from '../http/api-error.ts';
import type { Challenge } from './repository.ts';

/** The 409 a change gets on a closed challenge; `what` says what is refused ("servers cannot be started"). */
export function closedError(slug: string, what: string): ApiError {
  return new ApiError(
    'closed',
    `challenge "${slug}" is closed, so ${what}: its servers, answers and runs stay as they were at the close. Only the organiser can reopen it, or open its post-challenge phase.`,
  );
}

/** 409 when the challenge is closed. */
export function refuseWhenClosed(challenge: Pick<Challenge, 'slug' | 'phase'>, what: string): void {
  if (challenge.phase === 'closed') throw closedError(challenge.slug, what);
}
