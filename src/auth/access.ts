// Who may call a route is declared with the route, `config: { access }`, and enforced here
// by one hook before the handler runs: no token where one is needed is a 401, the wrong
// kind of caller a 403 (an invalid token is a 401 even before the body is read). Handlers then only decide what needs the resource:
// whether a team owns a server (canSee), whether scores are published yet.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../http/api-error.ts';
import type { Authenticator, Principal } from './principal.ts';

/**
 * - public: anyone, with or without a token (what it shows may still depend on who asks);
 * - admin: the organiser only;
 * - team: a team only (the organiser gets 403: the thing belongs to a team);
 * - owner: a team or the organiser, and the handler checks that the team owns the
 *   resource (canSee), answering 404 for another team's as for a missing one;
 * - participant: a team or the organiser; the handler may show a team less (its own
 *   servers) or refuse it until results are published.
 */
export type Access = 'public' | 'admin' | 'team' | 'owner' | 'participant';
export const ACCESS_KINDS: readonly Access[] = ['public', 'admin', 'team', 'owner', 'participant'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (src/auth/access.ts); every route declares it. */
    access?: Access;
  }
}

export type TeamPrincipal = Extract<Principal, { role: 'team' }>;
export type KnownPrincipal = Exclude<Principal, { role: 'anonymous' }>;

/** Refuses the caller when the access kind does not let it in; returns normally otherwise. */
export function checkAccess(access: Access, p: Principal): void {
  if (access === 'public') return;
  if (access === 'admin') {
    if (p.role === 'admin') return;
    if (p.role === 'anonymous')
      throw new ApiError('unauthorized', 'this needs the organiser token: send "Authorization: Bearer <admin token>"');
    throw new ApiError('forbidden', 'only the organiser may do this');
  }
  if (p.role === 'anonymous') {
    const who = access === 'team' ? 'a team token' : 'a team token or the organiser token';
    throw new ApiError('unauthorized', `this needs ${who}: send "Authorization: Bearer <token>"`);
  }
  if (access === 'team' && p.role !== 'team')
    throw new ApiError('forbidden', "this is done by a team, not the organiser: use the team's token");
}

export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

const declaredRoutes = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route registered on the app since enforceDeclaredAccess, with the access it declared (for the route test and docs). */
export function routesOf(app: FastifyInstance): DeclaredRoute[] {
  return (declaredRoutes.get(app) ?? []).flatMap((route) =>
    [route.method].flat().map((method) => ({ method, url: route.url, access: route.config?.access })),
  );
}

/**
 * Resolves the caller and enforces each route's declared access. A route without a
 * declaration is treated as organiser-only (closed, not open, by default); the route
 * test fails on any such route. Requests that matched no route go on to the 404.
 */
export function enforceDeclaredAccess(app: FastifyInstance, auth: Authenticator): void {
  const routes: RouteOptions[] = [];
  declaredRoutes.set(app, routes);
  // Kept as registered and read when listed: a plugin's own onRoute hook (which runs after
  // this one) may still declare the access of the routes it adds.
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  // Who is asking is settled first, before the body is read: a bad token is a 401 whatever the body.
  app.addHook('onRequest', async (request) => {
    await auth.principal(request);
  });
  // Whether that caller may use the route, once the request has been read and validated:
  // the same order as when handlers checked it, so a malformed or oversized request is
  // told so (400, 413) whoever sends it.
  app.addHook('preHandler', async (request) => {
    if (request.is404) return;
    checkAccess(request.routeOptions.config.access ?? 'admin', principalOf(request));
  });
}

/** The caller, as the access hook found it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('the access hook has not run for this request');
  return request.principal;
}

/** The caller of an 'owner' or 'participant' route: the organiser or a team. */
export function knownPrincipalOf(request: FastifyRequest): KnownPrincipal {
  const p = principalOf(request);
  if (p.role === 'anonymous') throw new Error(`${request.routeOptions.url} is reached anonymously; declare its access`);
  return p;
}

/** The caller of a 'team' route. */
export function teamOf(request: FastifyRequest): TeamPrincipal {
  const p = principalOf(request);
  if (p.role !== 'team') throw new Error(`${request.routeOptions.url} is reached without a team token; declare access 'team'`);
  return p;
}

/** Whether the caller may see a thing a team owns: the organiser sees all, a team its own. */
export function canSee(p: Principal, ownerTeamId: number): boolean {
  return p.role === 'admin' || (p.role === 'team' && p.teamId === ownerTeamId);
}
