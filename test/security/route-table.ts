// The expected status of every API operation for every role, used by isolation.test.ts.
// Keys are "METHOD /openapi/path"; a new route without an entry here fails that test.
// Roles: anonymous, team A (owns the servers named here), team B (another team taking part
// in the same challenge), admin (the organiser). A list means "any of these" (e.g. 200 when
// every server has answered, 202 while one is still working).
export type Role = 'anonymous' | 'teamA' | 'teamB' | 'admin';
export const ROLES: Role[] = ['anonymous', 'teamB', 'teamA', 'admin'];

export interface Fixture {
  slug: string;
  serverA: number;
  /** Team B's server. */
  serverB: number;
  /** Servers of team A deleted by the DELETE row, one per role that may try. */
  deletable: Record<Role, number>;
  articleId: string;
  organiserId: string;
  goodUrl: string;
  unique(): string;
}

export interface RouteCase {
  url: (f: Fixture, role: Role) => string;
  body?: (f: Fixture, role: Role) => unknown;
  contentType?: string;
  expect: Record<Role, number | number[]>;
}

const all = (s: number | number[]) => ({ anonymous: s, teamA: s, teamB: s, admin: s });
const adminOnly = (ok: number | number[]) => ({ anonymous: 401, teamA: 403, teamB: 403, admin: ok });
/** Team A's own server: another team gets the same 404 as for a server that does not exist. */
const ownerOrAdmin = (ok: number | number[]) => ({ anonymous: 401, teamA: ok, teamB: 404, admin: ok });
const DONE = [200, 202];

export const ROUTES: Record<string, RouteCase> = {
  'GET /healthz': { url: () => '/healthz', expect: all(200) },
  'GET /api/challenges': { url: () => '/api/challenges', expect: all(200) },
  'POST /api/challenges': {
    url: () => '/api/challenges',
    body: (f) => ({ slug: `c${f.unique()}`, name: 'x', tasks: ['INT'] }),
    expect: adminOnly(201),
  },
  'GET /api/challenges/{slug}': { url: (f) => `/api/challenges/${f.slug}`, expect: all(200) },
  'PATCH /api/challenges/{slug}': { url: (f) => `/api/challenges/${f.slug}`, body: () => ({ name: 'Isolation' }), expect: adminOnly(200) },
  'POST /api/teams': { url: () => '/api/teams', body: (f) => ({ name: `team ${f.unique()}`, contact: 'x@example.org' }), expect: all(201) },
  'POST /api/challenges/{slug}/servers': {
    url: (f) => `/api/challenges/${f.slug}/servers`,
    body: (f) => ({ name: `s${f.unique()}`, url: f.goodUrl, tasks: ['INT'] }),
    expect: { anonymous: 401, teamA: 201, teamB: 201, admin: 403 },
  },
  'GET /api/whoami': { url: () => '/api/whoami', expect: all(200) },
  'GET /api/challenges/{slug}/articles': { url: (f) => `/api/challenges/${f.slug}/articles?state=done`, expect: adminOnly(200) },
  'GET /api/challenges/{slug}/servers': {
    url: (f) => `/api/challenges/${f.slug}/servers`,
    expect: { anonymous: 401, teamA: 200, teamB: 200, admin: 200 },
  },
  'GET /api/servers/{id}': { url: (f) => `/api/servers/${f.serverA}`, expect: ownerOrAdmin(200) },
  'DELETE /api/servers/{id}': { url: (f, role) => `/api/servers/${f.deletable[role]}`, expect: ownerOrAdmin([200, 204]) },
  'POST /api/servers/{id}/start': { url: (f) => `/api/servers/${f.serverA}/start`, expect: ownerOrAdmin(200) },
  'POST /api/servers/{id}/pause': { url: (f) => `/api/servers/${f.serverA}/pause`, expect: ownerOrAdmin(200) },
  'POST /api/servers/{id}/check': { url: (f) => `/api/servers/${f.serverA}/check`, expect: ownerOrAdmin(200) },
  'POST /api/servers/{id}/retry-failed': { url: (f) => `/api/servers/${f.serverA}/retry-failed`, expect: ownerOrAdmin(200) },
  // Leases are for pull servers: serverA is called by the meta-server (409); a lease id nobody holds is 409 too.
  'POST /api/servers/{id}/leases': { url: (f) => `/api/servers/${f.serverA}/leases?wait=0`, expect: ownerOrAdmin(409) },
  'POST /api/servers/{id}/leases/renew': {
    url: (f) => `/api/servers/${f.serverA}/leases/renew`,
    body: () => ({ leases: [] }),
    expect: ownerOrAdmin(409),
  },
  // PGlite answers with its dump; on PostgreSQL the route says to use pg_dump (400).
  'POST /api/admin/backup': { url: () => '/api/admin/backup', expect: adminOnly([200, 400]) },
  'POST /api/leases/{lease}/answer': {
    url: () => `/api/leases/${'F'.repeat(32)}/answer`,
    body: () => ({ mentions: [] }),
    expect: { anonymous: 401, teamA: 409, teamB: 409, admin: 409 },
  },
  'POST /api/leases/{lease}/fail': {
    url: () => `/api/leases/${'F'.repeat(32)}/fail`,
    body: () => ({ message: 'x' }),
    expect: { anonymous: 401, teamA: 409, teamB: 409, admin: 409 },
  },
  'POST /api/leases/{lease}/release': {
    url: () => `/api/leases/${'F'.repeat(32)}/release`,
    expect: { anonymous: 401, teamA: 409, teamB: 409, admin: 409 },
  },
  'POST /api/challenges/{slug}/articles': {
    url: (f) => `/api/challenges/${f.slug}/articles`,
    body: (f) => ({ articles: [{ id: `X${f.unique()}`, text: 'BRCA1 binds TP53.' }] }),
    expect: adminOnly(202),
  },
  // Which articles are scored (the others background): the organiser's alone, never shown to a team.
  'GET /api/challenges/{slug}/scored-articles': { url: (f) => `/api/challenges/${f.slug}/scored-articles`, expect: adminOnly(200) },
  'PUT /api/challenges/{slug}/scored-articles': {
    url: (f) => `/api/challenges/${f.slug}/scored-articles`,
    body: (f) => ({ scored: [f.organiserId] }),
    expect: adminOnly(200),
  },
  'PATCH /api/challenges/{slug}/scored-articles': {
    url: (f) => `/api/challenges/${f.slug}/scored-articles`,
    body: (f) => ({ scored: [f.organiserId] }),
    expect: adminOnly(200),
  },
  // A challenge article is visible to the organiser and to teams taking part (their own servers' answers only).
  'GET /api/challenges/{slug}/articles/{id}': {
    url: (f) => `/api/challenges/${f.slug}/articles/${f.organiserId}`,
    expect: { anonymous: 404, teamA: DONE, teamB: DONE, admin: DONE },
  },
  'POST /api/articles': { url: () => '/api/articles', body: (f) => ({ text: `on demand ${f.unique()}` }), expect: all(202) },
  'GET /api/articles/{id}': {
    url: (f) => `/api/articles/${f.articleId}`,
    expect: { anonymous: 404, teamA: DONE, teamB: DONE, admin: DONE },
  },
  'GET /api/articles/{id}/responses/{serverId}': {
    url: (f) => `/api/articles/${f.articleId}/responses/${f.serverA}`,
    expect: { anonymous: 404, teamA: 200, teamB: 404, admin: 200 },
  },
  'PUT /api/challenges/{slug}/gold/{task}': {
    url: (f) => `/api/challenges/${f.slug}/gold/INT`,
    body: (f) => `${f.organiserId}\tP38398\n`,
    contentType: 'text/plain',
    expect: adminOnly(200),
  },
  // The organiser's own exports. The INT gold is loaded in its own form (TSV): its export is the 400 that says to load a
  // corpus, or 404 before the PUT row has run.
  'GET /api/challenges/{slug}/gold/{task}/export/{format}': {
    url: (f) => `/api/challenges/${f.slug}/gold/INT/export/bioc-json`,
    expect: adminOnly([400, 404]),
  },
  'GET /api/challenges/{slug}/articles/export/{format}': {
    url: (f) => `/api/challenges/${f.slug}/articles/export/pubtator`,
    expect: adminOnly(200),
  },
  'PUT /api/challenges/{slug}/maps/{kind}': {
    url: (f) => `/api/challenges/${f.slug}/maps/ho`,
    body: () => 'P38398\tP38398\n',
    contentType: 'text/plain',
    expect: adminOnly(200),
  },
  'POST /api/challenges/{slug}/runs/{task}': {
    url: (f) => `/api/challenges/${f.slug}/runs/INT`,
    body: (f) => `${f.organiserId}\tP38398\t1\t0.9\n`,
    contentType: 'text/plain',
    expect: { anonymous: 401, teamA: 201, teamB: 201, admin: 403 },
  },
  // Scores are hidden from teams until the challenge is closed (see isolation.test.ts for after).
  'GET /api/challenges/{slug}/scores/{task}': { url: (f) => `/api/challenges/${f.slug}/scores/INT`, expect: adminOnly(200) },
  // Every run in one download: teams once the leaderboards are published (not here); 404 no_gold before the gold's PUT row has run.
  'GET /api/challenges/{slug}/runs/export': { url: (f) => `/api/challenges/${f.slug}/runs/export`, expect: adminOnly([200, 404]) },
  'GET /api/challenges/{slug}/export/{task}': {
    url: (f) => `/api/challenges/${f.slug}/export/INT?server=${f.serverA}`,
    expect: ownerOrAdmin(200),
  },
  // Routes of the consensus, export, public XML-RPC and test-suite features.
  'POST /api/challenges/{slug}/ensembles/{task}': {
    url: (f) => `/api/challenges/${f.slug}/ensembles/INT`,
    body: () => ({}),
    expect: adminOnly([201, 400, 404, 409]),
  },
  // The trained ensemble names every team's runs with weights learnt from the gold: like
  // scores, teams should not see it before the challenge is closed (see KNOWN_LEAKS).
  'GET /api/challenges/{slug}/ensembles/{task}': {
    url: (f) => `/api/challenges/${f.slug}/ensembles/INT`,
    expect: { anonymous: 401, teamA: 403, teamB: 403, admin: 200 },
  },
  'GET /api/challenges/{slug}/export/{task}/{format}': {
    url: (f) => `/api/challenges/${f.slug}/export/INT/tsv?server=${f.serverA}`,
    expect: ownerOrAdmin(200),
  },
  // INT carries no streamed format: the owner's answer is the 400 that says so.
  'GET /api/challenges/{slug}/export/{task}/{format}/stream': {
    url: (f) => `/api/challenges/${f.slug}/export/INT/pubtator/stream?server=${f.serverA}`,
    expect: ownerOrAdmin(400),
  },
  // Teams get a consensus over their own servers' answers only (checked in isolation.test.ts).
  'GET /api/articles/{id}/consensus': {
    url: (f) => `/api/articles/${f.articleId}/consensus`,
    expect: { anonymous: 404, teamA: 200, teamB: 200, admin: 200 },
  },
  'POST /xmlrpc': {
    url: () => '/xmlrpc',
    body: () => '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName><params/></methodCall>',
    contentType: 'text/xml',
    expect: all(200),
  },
  // A team may run a suite only on its own servers: team A naming team B's server is refused.
  'POST /api/testsuites': {
    url: () => '/api/testsuites',
    body: (f) => ({ name: `suite-${f.unique()}`, servers: [f.serverB] }),
    expect: { anonymous: 401, teamA: 403, teamB: 400, admin: 400 },
  },
  'GET /api/testsuites/{name}': {
    url: () => '/api/testsuites/no-such-suite',
    expect: { anonymous: [401, 404], teamA: 404, teamB: 404, admin: 404 },
  },
  'GET /api/testsuites/{name}/report': {
    url: () => '/api/testsuites/no-such-suite/report',
    expect: { anonymous: [401, 404], teamA: 404, teamB: 404, admin: 404 },
  },
  'GET /metrics': { url: () => '/metrics', expect: adminOnly(200) },
  'GET /api/challenges/{slug}/reliability': { url: (f) => `/api/challenges/${f.slug}/reliability`, expect: adminOnly(200) },
};

/**
 * Rows that show an isolation problem not fixed yet: they run as expected failures, so the
 * suite stays green now and turns red (asking for this entry to go) once they are fixed.
 */
export const KNOWN_LEAKS: Record<string, string> = {};
