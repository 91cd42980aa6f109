// The requests tests send only to set things up — a team, a challenge, its articles, a
// server, its start — one call each on the test meta-server (ms.team(), ms.challenge(), …).
// Each checks the status the route answers when all is well; any other answer fails the
// setup with the request, the status and the body, so a broken setup says what broke.
// Tests of these routes themselves (their statuses, refusals, answers) write the request out.

/** How the helpers reach the meta-server: TestMetaserver.request. */
type Request = <T = any>(method: string, url: string, body?: unknown, token?: string) => Promise<{ status: number; body: T }>;

export interface RegisteredTeam {
  id: number;
  name: string;
  /** The team's token, shown only in the registration's answer. */
  token: string;
}

/** A challenge's fields besides its slug: POST /api/challenges takes them as they are. */
export interface ChallengeFields {
  /** Default: the slug. */
  name?: string;
  /** Default: INT. */
  tasks?: readonly string[];
  [setting: string]: unknown;
}

/** An annotation server's fields: POST /api/challenges/:slug/servers takes them as they are. */
export interface ServerFields {
  /** Default: "server N", N counting the servers registered without a name. */
  name?: string;
  url?: string;
  /** Default: INT. */
  tasks?: readonly string[];
  [field: string]: unknown;
}

/** Articles as loaded: a list of {id, text, …}, or the whole body (pubtator, bioc, file, …). */
export type ArticlesToLoad = Array<Record<string, unknown>> | Record<string, unknown>;

export interface LoadedArticles {
  accepted: number;
  created: number;
  /** The meta-server's article id for each organiser id. */
  ids: Record<string, string>;
  queued: boolean;
  [field: string]: any;
}

export interface SetupRequests {
  /** Registers a team (POST /api/teams, 201). */
  team(name?: string): Promise<RegisteredTeam>;
  /** Creates a challenge as the organiser (POST /api/challenges, 201): the challenge as answered. */
  challenge(slug: string, fields?: ChallengeFields): Promise<any>;
  /** Loads articles into a challenge as the organiser (POST /api/challenges/:slug/articles, 202). */
  articles(slug: string, articles: ArticlesToLoad): Promise<LoadedArticles>;
  /**
   * Registers a team's server in a challenge (POST /api/challenges/:slug/servers, 201): the server with its check, or
   * with background, at once with checkRunning (?background=true).
   */
  server(slug: string, token: string, fields?: ServerFields, opts?: { background?: boolean }): Promise<any>;
  /** Starts a server (POST /api/servers/:id/start, 200): the server as answered. */
  startServer(serverId: number, token: string): Promise<any>;
}

export function setupRequests(request: Request, adminToken: string): SetupRequests {
  let unnamedTeams = 0;
  let unnamedServers = 0;
  async function expecting(status: number, method: string, url: string, body: unknown, token?: string): Promise<any> {
    const res = await request(method, url, body, token);
    if (res.status !== status)
      throw new Error(`setup request ${method} ${url} answered ${res.status}, not ${status}: ${JSON.stringify(res.body) ?? '(no body)'}`);
    return res.body;
  }
  return {
    team: (name = `Setup team ${++unnamedTeams}`) => expecting(201, 'POST', '/api/teams', { name, contact: 'team@example.org' }),
    challenge: (slug, fields = {}) =>
      expecting(201, 'POST', '/api/challenges', { slug, name: slug, tasks: ['INT'], ...fields }, adminToken),
    articles: (slug, articles) =>
      expecting(202, 'POST', `/api/challenges/${slug}/articles`, Array.isArray(articles) ? { articles } : articles, adminToken),
    server: (slug, token, fields = {}, opts = {}) =>
      expecting(
        201,
        'POST',
        `/api/challenges/${slug}/servers${opts.background ? '?background=true' : ''}`,
        { name: `server ${++unnamedServers}`, tasks: ['INT'], ...fields },
        token,
      ),
    // 202: started, its queue step left to the reconciler because Redis took over a second
    // (a loaded machine); the articles still go out, so the setup goes on either way.
    startServer: async (serverId, token) => {
      const res = await request('POST', `/api/servers/${serverId}/start`, undefined, token);
      if (res.status !== 200 && res.status !== 202)
        throw new Error(
          `setup request POST /api/servers/${serverId}/start answered ${res.status}, not 200 or 202: ${JSON.stringify(res.body)}`,
        );
      return res.body;
    },
  };
}
