// Which parts of an article a server is sent, the same for every protocol: the text;
// `given` only to servers registered for a task whose family takes it (COREF) — a server
// written for the original BCMS takes one parameter and faults on a second one; the
// metadata {article, tasks} only to servers that asked for it at registration.
import { ALL_FAMILIES, type TaskName } from '../../families/registry.ts';
import type { RequestParts } from './types.ts';

/** The families whose servers are also sent the given annotations (COREF). */
const GIVEN_FAMILIES = ALL_FAMILIES.filter((f) => f.given);

/** The tasks that take `given`, for messages (COREF). */
export const GIVEN_TASKS = GIVEN_FAMILIES.map((f) => f.name).join(' or ');

export function sendsGiven(server: { tasks: readonly TaskName[] | readonly string[] }): boolean {
  return GIVEN_FAMILIES.some((f) => (server.tasks as readonly string[]).includes(f.name));
}

/** The parameters a server is sent, each with why, e.g. for a fault about their number. */
export function describeParams(server: { tasks: readonly TaskName[] | readonly string[]; sendMetadata: boolean }): string {
  const params = ['text (the article)'];
  const given = GIVEN_FAMILIES.filter((f) => (server.tasks as readonly string[]).includes(f.name));
  if (given.length > 0)
    params.push(
      `given (${given.map((f) => f.given!.description).join(', ')}: the server is registered for ${given.map((f) => f.name).join(' and ')})`,
    );
  if (server.sendMetadata) params.push('meta (a struct {article, tasks}: the server asked for it at registration)');
  return `${params.length} parameter${params.length === 1 ? '' : 's'}: ${params.join(', ')}`;
}

/** The parts of one article a server is sent. */
export function requestParts(
  article: { id: string; organiserId: string | null; text: string; given: string },
  server: { tasks: readonly TaskName[]; sendMetadata: boolean },
): RequestParts {
  return {
    text: article.text,
    ...(sendsGiven(server) ? { given: article.given } : {}),
    ...(server.sendMetadata ? { meta: { article: article.organiserId ?? article.id, tasks: server.tasks } } : {}),
  };
}
