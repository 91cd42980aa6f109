// Who may do what: every API operation (enumerated from the OpenAPI document, so a route
// without an entry in route-table.ts fails here) is called as anonymous, team A (owner),
// team B (another team) and the organiser, and must answer with the expected status. Then
// what each may see: a team sees only its own servers and their answers, and scores only
// once the challenge is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { KNOWN_LEAKS, ROLES, ROUTES, type Fixture, type Role } from './route-table.ts';

let ms: TestMetaserver;
let good: FaultyServer;
const tokens: Record<Role, string | undefined> = { anonymous: undefined, teamA: undefined, teamB: undefined, admin: ADMIN_TOKEN };
let fixture: Fixture;
let serverB: number;
let counter = 0;

async function call(method: string, url: string, role: Role, body?: unknown, contentType?: string) {
  const headers: Record<string, string> = {};
  if (tokens[role]) headers.authorization = `Bearer ${tokens[role]}`;
  if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await ms.app!.inject({ method: method as 'GET', url, headers, payload });
  return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? res.json() : res.body };
}

const register = async (role: Role, name: string): Promise<number> => (await ms.server('iso', tokens[role]!, { name, url: good.url })).id;

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { submitRateLimitPerMinute: 1000 } });
  good = await startFaultyServer({ kind: 'good' });
  await ms.challenge('iso', { name: 'Iso', serversPerTeam: 50, timeoutSeconds: 5 });
  const loaded = await ms.articles('iso', [{ id: 'I1', text: 'BRCA1 (P38398) binds TP53.' }]);
  await call('PATCH', '/api/challenges/iso', 'admin', { phase: 'test' });
  tokens.teamA = (await ms.team('Team A')).token;
  tokens.teamB = (await ms.team('Team B')).token;
  const serverA = await register('teamA', 'A main');
  serverB = await register('teamB', 'B main');
  const deletable = { anonymous: 0, teamA: 0, teamB: 0, admin: 0 } as Record<Role, number>;
  for (const role of ROLES) deletable[role] = await register('teamA', `A deletable ${role}`);
  for (const id of [serverA, serverB]) await ms.startServer(id, id === serverA ? tokens.teamA : tokens.teamB);
  await waitFor('both answers', async () => {
    const rows = await ms.database.db.query(`select 1 from deliveries where state = 'done'`);
    return rows.length === 2 ? true : undefined;
  });
  fixture = {
    slug: 'iso',
    serverA,
    serverB,
    deletable,
    articleId: loaded.ids.I1,
    organiserId: 'I1',
    goodUrl: good.url,
    unique: () => String(++counter),
  };
});
afterAll(async () => {
  await ms?.stop();
  await good?.close();
});

describe('every route and role', () => {
  it('the table names every operation of the OpenAPI document, and nothing else', async () => {
    const doc = (await call('GET', '/openapi.json', 'anonymous')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(
      operations.filter((op) => !(op in ROUTES)),
      'routes without an entry in test/security/route-table.ts',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((op) => !operations.includes(op)),
      'entries for routes that no longer exist',
    ).toEqual([]);
  });

  const rows = Object.entries(ROUTES).flatMap(([op, c]) => ROLES.map((role) => ({ op, role, c })));
  const check = async ({ op, role, c }: (typeof rows)[number]) => {
    const method = op.split(' ')[0];
    const res = await call(method, c.url(fixture, role), role, c.body?.(fixture, role), c.contentType);
    const expected = c.expect[role];
    expect(Array.isArray(expected) ? expected : [expected], `${op} as ${role}: ${JSON.stringify(res.body).slice(0, 300)}`).toContain(
      res.status,
    );
  };
  it.each(rows.filter((r) => !KNOWN_LEAKS[`${r.op} ${r.role}`]))('$op as $role', check);
  const leaks = rows.filter((r) => KNOWN_LEAKS[`${r.op} ${r.role}`]);
  if (leaks.length > 0) it.fails.each(leaks)('$op as $role (known leak, not fixed yet)', check);
});

describe('what each role sees', () => {
  it('a team lists only its own servers; the organiser lists all', async () => {
    const a = (await call('GET', '/api/challenges/iso/servers', 'teamA')).body as Array<{ id: number }>;
    const b = (await call('GET', '/api/challenges/iso/servers', 'teamB')).body as Array<{ id: number }>;
    const admin = (await call('GET', '/api/challenges/iso/servers', 'admin')).body as Array<{ id: number }>;
    expect(a.map((s) => s.id)).toContain(fixture.serverA);
    expect(a.map((s) => s.id)).not.toContain(serverB);
    expect(b.map((s) => s.id)).toEqual(
      [serverB, ...b.map((s) => s.id).filter((id) => id !== serverB)].filter((id) => id !== fixture.serverA),
    );
    expect(admin.map((s) => s.id)).toEqual(expect.arrayContaining([fixture.serverA, serverB]));
  });

  it("a challenge article shows a team only its own servers' answers", async () => {
    const asA = (await call('GET', `/api/articles/${fixture.articleId}`, 'teamA')).body as {
      servers: Array<{ serverId?: number; id?: number }>;
    };
    const ids = (v: { servers: Array<{ serverId?: number; id?: number }> }) => v.servers.map((s) => s.serverId ?? s.id);
    expect(ids(asA)).toEqual([fixture.serverA]);
    const asB = (await call('GET', `/api/articles/${fixture.articleId}`, 'teamB')).body;
    expect(ids(asB)).toEqual([serverB]);
    expect(ids((await call('GET', `/api/articles/${fixture.articleId}`, 'admin')).body)).toEqual(
      expect.arrayContaining([fixture.serverA, serverB]),
    );
  });

  it('scores are refused to teams until the challenge is closed, then shown to them', async () => {
    const before = await call('GET', '/api/challenges/iso/scores/INT', 'teamA');
    expect(before.status).toBe(403);
    expect(before.body.error.code).toBe('not_published');
    expect((await call('PATCH', '/api/challenges/iso', 'admin', { phase: 'closed' })).status).toBe(200);
    expect((await call('GET', '/api/challenges/iso/scores/INT', 'teamA')).status).toBe(200);
    expect((await call('GET', '/api/challenges/iso/scores/INT', 'teamB')).status).toBe(200);
    expect((await call('GET', '/api/challenges/iso/scores/INT', 'anonymous')).status).toBe(401);
  });
});
