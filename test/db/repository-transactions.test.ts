// The repositories' own transactions (routes hold none since issue 19): a challenge's
// settings and phase change together or not at all; a server is deleted with its rows, or
// kept whole while another record still needs it; a repository built on a transaction's handle refuses to open one of its own, with a
// message that says which repository to use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '../../src/app-context.ts';
import { ChallengeRepository } from '../../src/challenges/repository.ts';
import { ServerRepository } from '../../src/servers/repository.ts';
import { openTestDatabase, type TestDatabase } from '../support/runtime.ts';

let tdb: TestDatabase;
let repos: Repositories;
let challengeId: number;
let teamId: number;

beforeAll(async () => {
  tdb = await openTestDatabase('pglite');
  repos = createRepositories(tdb.db);
  challengeId = (await repos.challenges.create({ slug: 'tx-rules', name: 'Rules', tasks: ['INT'] }))!.id;
  teamId = (await repos.teams.create('team', 'contact', 'hash'))!.id;
});
afterAll(async () => tdb?.drop());

const server = (name: string) => ({
  challengeId,
  teamId,
  name,
  url: 'http://127.0.0.1:9/',
  tasks: ['INT' as const],
  method: 'm',
  concurrency: 1,
  sendMetadata: false,
});

describe('repository transactions', () => {
  it('changes settings and phase in one transaction, and records who changed the phase', async () => {
    const after = await repos.challenges.change(
      'tx-rules',
      { name: 'Renamed', maxAttempts: 7 },
      { to: 'test', by: 'organiser', address: '10.0.0.1' },
    );
    expect(after).toMatchObject({ name: 'Renamed', maxAttempts: 7, phase: 'test' });
    expect((await repos.challenges.phaseHistory(challengeId)).map((c) => [c.from, c.to, c.by])).toEqual([['setup', 'test', 'organiser']]);
    expect(await repos.challenges.change('no-such-challenge', { name: 'x' }, { to: 'closed', by: 'organiser', address: null })).toBeNull();
  });

  it('registers a server in its own transaction and deletes it with its history', async () => {
    const created = await repos.servers.register(server('a'), 5);
    if (typeof created === 'string') throw new Error(`not registered: ${created}`);
    expect(await repos.servers.register(server('a'), 5)).toBe('duplicate');
    expect(await repos.servers.deleteWithHistory(created.id)).toEqual({ deleted: true });
    expect(await repos.servers.byId(created.id)).toBeNull();
  });

  it('refuses an own transaction on a repository built inside one, naming the way out', async () => {
    await expect(tdb.db.transaction(async (tx) => await new ServerRepository(tx).register(server('b'), 5))).rejects.toThrow(
      /inside a transaction already; use the one built with the database handle/,
    );
    await expect(tdb.db.transaction(async (tx) => await new ChallengeRepository(tx).change('tx-rules', {}, undefined))).rejects.toThrow(
      /inside a transaction already/,
    );
    expect(await repos.servers.listByChallenge(challengeId)).toEqual([]);
  });

  it('keeps a server another record still needs, and names the table that refers to it', async () => {
    const source = await repos.servers.register(server('kept'), 5);
    if (typeof source === 'string') throw new Error(`not registered: ${source}`);
    await repos.suiteRuns.create({ name: 'tx-kept', items: [], document: {} as never, sources: [source], settings: {} });
    expect(await repos.servers.deleteWithHistory(source.id)).toEqual({ deleted: false, referencedFrom: 'testsuite_servers' });
    expect(await repos.servers.byId(source.id)).toMatchObject({ id: source.id, name: 'kept' });
  });
});
