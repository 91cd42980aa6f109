// Baselines: runs the organiser uploads (POST …/runs/:task?baseline=1&name=NAME) to compare
// the teams' runs with. Stored and scored like any offline run, but of no team: they take no
// team's slot, no rank, and a second upload under the same name replaces the first.
import type { Principal } from '../auth/principal.ts';
import { ApiError, badRequest } from '../http/api-error.ts';

/** Characters a name shown on the leaderboard (and in its TSV) must not hold. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The teams' run names (T<team>_R<n>, T<team>_S<n>): a baseline must not look like one. */
const TEAM_RUN_NAME = /^T\d+_[RS]\d+$/;

/**
 * The baseline's name when the upload asks for one (baseline=1), undefined for a team's
 * run; refuses a team asking for a baseline, the organiser sending a team run, and a
 * name without baseline=1 or not fit to show.
 */
export function baselineNameOf(principal: Principal, query: { baseline?: string; name?: string }): string | undefined {
  const baseline = query.baseline === '1' || query.baseline === 'true';
  if (!baseline) {
    if (query.name !== undefined)
      throw badRequest('name applies with baseline=1 only (the organiser naming a baseline); add baseline=1 or leave name out');
    if (principal.role === 'admin')
      throw new ApiError(
        'forbidden',
        "offline runs are uploaded by a team with the team's token; the organiser uploads a baseline with ?baseline=1&name=NAME",
      );
    return undefined;
  }
  if (principal.role !== 'admin')
    throw new ApiError('forbidden', 'only the organiser uploads baselines (baseline=1); a team uploads its runs without baseline=1');
  const name = query.name;
  if (name === undefined || name.trim() === '')
    throw badRequest('a baseline needs a name: add name=NAME (1 to 100 characters), the name it is shown under on the leaderboard');
  if (CONTROL.test(name)) throw badRequest('the baseline name must not contain control characters (tabs, line breaks…); choose another');
  if (TEAM_RUN_NAME.test(name))
    throw badRequest(`"${name}" has the form of a team's run name (T<team>_R<n>, T<team>_S<n>); choose another baseline name`);
  return name;
}
