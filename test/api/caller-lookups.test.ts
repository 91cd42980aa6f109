// Who is calling is looked up once per team token and kept a while (src/auth/principal.ts):
// the pull protocol's agents send two requests per article. And the per-client rate limit
// refuses only the requests of a burst past the limit, however quickly each request's
// caller is known (src/http/rate-limit-store.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from '../../src/auth/principal.ts';
import { hashToken } from '../../src/auth/tokens.ts';
import { TeamRepository } from '../../src/teams/repository.ts';
import { openTestDatabase, startTestMetaserver, type TestDatabase, type TestMetaserver } from '../support/runtime.ts';

const asking = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as FastifyRequest;

describe("a team's token", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('resolves without a database read the second time, and is read again once its time is up', async () => {
    const teams = new TeamRepository(database.db);
    const team = (await teams.create('Kept', 'kept@example.org', hashToken('kept-token')))!;
    let now = 1_000_000;
    const auth = new Authenticator(hashToken('admin'), teams, () => now);
    const expected = { role: 'team', teamId: team.id, teamName: 'Kept' };
    expect(await auth.principal(asking('kept-token'))).toEqual(expected);
    // The row no longer matches the token: only a principal kept in memory can still answer.
    await database.db.query(`update teams set token_hash = 'changed' where id = $1`, [team.id]);
    expect(await auth.principal(asking('kept-token'))).toEqual(expected);
    now += 11_000;
    await expect(auth.principal(asking('kept-token'))).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('the per-client rate limit', () => {
  let ms: TestMetaserver;
  beforeAll(async () => {
    ms = await startTestMetaserver({ config: { submitRateLimitPerMinute: 20 } });
  });
  afterAll(async () => {
    await ms?.stop();
  });

  it('refuses only the requests of a burst past the limit', async () => {
    // Callers known at once (no token to look up) reach the limiter in the same turn of the event loop.
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => ms.app!.inject({ method: 'POST', url: '/api/teams', payload: { nonsense: true } })),
    );
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(10);
    expect(limited[0].json().error.code).toBe('rate_limited');
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(20);
  });
});
