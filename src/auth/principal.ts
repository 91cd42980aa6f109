// Who is calling: the organiser (admin token), a team (team token) or anyone. What each
// may do is declared per route and enforced in access.ts.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error.ts';
import type { TeamRepository } from '../teams/repository.ts';
import { hashToken, sameHash } from './tokens.ts';

export type Principal = { role: 'admin' } | { role: 'team'; teamId: number; teamName: string } | { role: 'anonymous' };

/** Who is asking, as a cache key: responses kept for one caller are never served to another. */
export function callerKey(p: Principal): string {
  return p.role === 'team' ? `team:${p.teamId}` : p.role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the onRequest hook, before the body is parsed: a bad token is a 401 whatever the body. */
    principal?: Principal;
  }
}

/** How long a team found by its token is kept: a team's token never changes; this bounds a team removed from the database by hand. */
const TEAM_KEPT_MS = 10_000;
/** Teams kept at most: past this the oldest go first (an installation has tens of teams). */
const TEAMS_KEPT = 1_000;

export class Authenticator {
  /** Teams by token hash: every lease request (twice per pulled article) asks again. */
  private readonly kept = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly adminTokenHash: string,
    private readonly teams: TeamRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async principal(request: FastifyRequest): Promise<Principal> {
    request.principal ??= await this.resolve(request);
    return request.principal;
  }

  private async resolve(request: FastifyRequest): Promise<Principal> {
    const header = request.headers.authorization;
    if (!header) return { role: 'anonymous' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new ApiError('unauthorized', 'the Authorization header must be "Bearer <token>"');
    const hash = hashToken(match[1]);
    if (sameHash(hash, this.adminTokenHash)) return { role: 'admin' };
    const kept = this.kept.get(hash);
    if (kept && kept.until > this.now()) return kept.principal;
    const team = await this.teams.byTokenHash(hash);
    if (team) return this.keep(hash, { role: 'team', teamId: team.id, teamName: team.name });
    throw new ApiError(
      'unauthorized',
      'the token is not valid; use the token you were given when your team registered, or the organiser token',
    );
  }

  private keep(hash: string, principal: Principal): Principal {
    this.kept.delete(hash);
    if (this.kept.size >= TEAMS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(hash, { principal, until: this.now() + TEAM_KEPT_MS });
    return principal;
  }
}
