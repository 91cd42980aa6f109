// The options and requests of the web routes (routes.ts). Pages and fragments publish no
// schema (they are left out of /openapi.json) and validate nothing: a page answers a
// malformed id with its own not-found, a fragment with what the API answered. So what stands
// here is the one option every web route shares and, as types, the params and query string
// each route reads (with the type of a handler typed by them, and the one query value two
// routes read alike).
import type { RouteGenericInterface } from 'fastify';
import type { DeclaredRouteHandler } from '../http/route-types.ts';

/** Pages and fragments are public: fragments call the API with the caller's token, which decides what they show. */
export const HIDDEN = { schema: { hide: true }, config: { access: 'public' as const } };

/** A handler of a web route whose request reads the params and query string of G. */
export type WebHandler<G extends RouteGenericInterface = RouteGenericInterface> = DeclaredRouteHandler<G>;

/** `?closed=show`: closed challenges unfolded on the organiser's page and glance. */
export interface OrganiserRequest {
  Querystring: { closed?: string };
}

/** A server's page and fragment: the page is the organiser's with `?as=organiser`; `?errorsOffset=`, its page of failed attempts. */
export interface ServerRequest {
  Params: { id: string };
  Querystring: { as?: string; errorsOffset?: string };
}

/** The server page's page of failed attempts (?errorsOffset=N), 0 when absent or malformed. */
export const errorsOffsetOf = (query: { errorsOffset?: string }): number =>
  /^[0-9]{1,8}$/.test(query.errorsOffset ?? '') ? Number(query.errorsOffset) : 0;

/** A challenge's articles: by state or by one server's outcome, the page after a key (or from an old link's offset). */
export interface ArticlesRequest {
  Params: { slug: string };
  Querystring: { state?: string; after?: string; offset?: string; server?: string; outcome?: string };
}

/** Where a page of the articles list starts: after a key (the API's `next`), else an offset (old links), else the first. */
export interface ArticlesPosition {
  after: string | null;
  offset: number;
}

/** The position in the query string, as the API's own patterns take it; a malformed one is the first page. */
export function articlesPositionOf(query: { after?: string; offset?: string }): ArticlesPosition {
  if (/^[0-9]{1,18}$/.test(query.after ?? '')) return { after: query.after!, offset: 0 };
  return { after: null, offset: /^[0-9]{1,8}$/.test(query.offset ?? '') ? Number(query.offset) : 0 };
}

export interface ChallengeRequest {
  Params: { slug: string };
}

/** The organiser page's "open a report by name" form. */
export interface SuiteByNameRequest {
  Querystring: { name?: string };
}

/** A test suite's page, on one of its servers. */
export interface SuiteRequest {
  Params: { name: string };
  Querystring: { server?: string };
}

/** An article's page and fragment, a server's export fragment. */
export interface IdRequest {
  Params: { id: string };
}

/** A leaderboard: its query string holds the scoring and display options (leaderboard-options.ts). */
export interface LeaderboardRequest {
  Params: { slug: string; task: string };
  Querystring: Record<string, string>;
}
