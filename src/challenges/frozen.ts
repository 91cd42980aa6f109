// A closed challenge is frozen: its servers, their answers and the runs stay as they were at
// the close, for everyone, until the organiser reopens it explicitly.
import { ApiError } from '../http/api-error.ts';
import type { Challenge } from './repository.ts';

/** 409 when the challenge is closed; `what` says what is refused ("servers cannot be started"). */
export function refuseWhenClosed(challenge: Pick<Challenge, 'slug' | 'phase'>, what: string): void {
  if (challenge.phase !== 'closed') return;
  throw new ApiError(
    'closed',
    `challenge "${challenge.slug}" is closed, so ${what}: its servers, answers and runs stay as they were at the close. Only the organiser can reopen it.`,
  );
}
