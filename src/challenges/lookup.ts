// The challenge a route's `:slug` names, found the one way every route finds it: 404 when
// there is none, and where the route has a `:task`, 400 (unknown_task) unless the
// challenge runs that task. The task name itself is checked before, by the route's params
// schema (TaskParams in http/schemas.ts), so a name no family has never gets this far.
import { ApiError, notFound } from '../http/api-error.ts';
import type { TaskName } from '../families/registry.ts';
import type { Challenge, ChallengeRepository } from './repository.ts';

export async function challengeOf(
  challenges: Pick<ChallengeRepository, 'bySlug'>,
  params: { slug: string; task?: TaskName },
): Promise<Challenge> {
  const challenge = await challenges.bySlug(params.slug);
  if (!challenge) throw notFound(`challenge "${params.slug}"`);
  if (params.task !== undefined && !challenge.tasks.includes(params.task)) {
    throw new ApiError(
      'unknown_task',
      `challenge "${challenge.slug}" has no ${params.task} task; its tasks are ${challenge.tasks.join(', ')}`,
    );
  }
  return challenge;
}
