// Every route declares who may call it (config.access, src/auth/access.ts), and one hook
// enforces it: this test lists every route the app registered and fails on one without a
// declaration, then calls a route of each kind as each kind of caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_KINDS, routesOf } from '../../src/auth/access.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let teamA: { id: number; token: string };
let teamB: { id: number; token: string };
let serverOfA: number;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false, config: { openTeamRegistration: true } });
  await ms.challenge('access', { name: 'Access' });
  teamA = await ms.team('Access A');
  teamB = await ms.team('Access B');
  // Nothing listens on the discard port: the check fails, the server is registered all the same.
  const server = await ms.server('access', teamA.token, { name: 'a1', url: 'http://127.0.0.1:9/' });
  serverOfA = server.id;
});
afterAll(async () => {
  await ms?.stop();
});

describe('declared access', () => {
  it('is declared by every registered route, with a known kind', () => {
    const routes = routesOf(ms.app!);
    // The app's own routes, the API description and its pages are all there.
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /api/challenges',
      'GET /api/servers/:id',
      'POST /xmlrpc',
      'GET /openapi.json',
      'GET /docs/json',
      'GET /healthz',
      'GET /',
    ])
      expect(names).toContain(known);
    const undeclared = routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without config.access').toEqual([]);
    const unknown = routes
      .filter((r) => r.access !== undefined && !ACCESS_KINDS.includes(r.access))
      .map((r) => `${r.method} ${r.url}: ${r.access}`);
    expect(unknown).toEqual([]);
    // Each kind is in use: a kind no route declares would be dead weight in the hook.
    expect(new Set(routes.map((r) => r.access))).toEqual(new Set(ACCESS_KINDS));
  });

  it('public: anyone, with or without a token', async () => {
    for (const token of [undefined, teamA.token, ADMIN_TOKEN])
      expect((await ms.request('GET', '/api/challenges', undefined, token)).status).toBe(200);
    // The API description's pages, added by a plugin, are declared public too.
    expect((await ms.request('GET', '/docs/json')).status).toBe(200);
    expect((await ms.request('GET', '/openapi.json')).status).toBe(200);
  });

  it('admin: 401 without a token, 403 for a team, through for the organiser', async () => {
    const body = { slug: 'access-2', name: 'Access 2', tasks: ['INT'] };
    const anonymous = await ms.request('POST', '/api/challenges', body);
    expect(anonymous).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect(anonymous.body.error.message).toMatch(/organiser token/);
    expect(await ms.request('POST', '/api/challenges', body, teamA.token)).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden' } },
    });
    expect((await ms.request('POST', '/api/challenges', body, ADMIN_TOKEN)).status).toBe(201);
  });

  it('judges a bad token before the body (401), and the caller after the request is read and validated (as handlers did)', async () => {
    expect(await ms.request('POST', '/api/challenges', { nonsense: true }, 'not-a-token')).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    });
    expect(await ms.request('POST', '/api/challenges', { nonsense: true }, teamA.token)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
  });

  it('team: 401 without a token, 403 for the organiser, through for a team', async () => {
    const body = { name: 'x', url: 'http://127.0.0.1:9/', tasks: ['ACT'] };
    expect((await ms.request('POST', '/api/challenges/access/servers', body)).status).toBe(401);
    const organiser = await ms.request('POST', '/api/challenges/access/servers', body, ADMIN_TOKEN);
    expect(organiser).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    expect(organiser.body.error.message).toMatch(/team/);
    // Through the access check, the handler refuses the task the challenge lacks.
    const team = await ms.request('POST', '/api/challenges/access/servers', body, teamA.token);
    expect(team).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
  });

  it('owner: 401 without a token; the owning team and the organiser see the server, another team gets the 404 of a missing one', async () => {
    expect((await ms.request('GET', `/api/servers/${serverOfA}`)).status).toBe(401);
    expect((await ms.request('GET', `/api/servers/${serverOfA}`, undefined, teamA.token)).status).toBe(200);
    expect((await ms.request('GET', `/api/servers/${serverOfA}`, undefined, ADMIN_TOKEN)).status).toBe(200);
    const other = await ms.request('POST', `/api/servers/${serverOfA}/pause`, undefined, teamB.token);
    expect(other).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect((await ms.request('GET', `/api/servers/${serverOfA}`, undefined, teamB.token)).status).toBe(404);
  });

  it('participant: 401 without a token; a team sees its own servers, the organiser all', async () => {
    expect((await ms.request('GET', '/api/challenges/access/servers')).status).toBe(401);
    expect(
      (await ms.request('GET', '/api/challenges/access/servers', undefined, teamA.token)).body.map((s: { id: number }) => s.id),
    ).toEqual([serverOfA]);
    expect((await ms.request('GET', '/api/challenges/access/servers', undefined, teamB.token)).body).toEqual([]);
    expect(
      (await ms.request('GET', '/api/challenges/access/servers', undefined, ADMIN_TOKEN)).body.map((s: { id: number }) => s.id),
    ).toEqual([serverOfA]);
  });

  it('leaves a request that matches no route to the 404, whoever asks', async () => {
    expect(await ms.request('GET', '/api/no-such-route')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });
});
