// Storage of test-suite runs. A run is an ordinary challenge (slug `suite-<name>`, task
// MENTION) whose articles are the suite's items and whose servers are copies of the chosen
// registered servers, so the suite goes through the same queue, deadline, retry,
// validation and storage path as any article. The challenge, the server copies, the
// articles and the suite document are written in one transaction: a failure (a taken
// name, a race with another run) leaves nothing behind.

import { sha256 } from '../articles/repository.ts';
import { ChallengeRepository, type Challenge, type ChallengeSettings } from '../challenges/repository.ts';
import type { Database } from '../db/database.ts';
import { ServerRepository, type AnnotationServer } from '../servers/repository.ts';
import { mention } from '../families/mention/index.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { MentionItem } from '../families/mention/types.ts';
import type { SuiteDocument } from './suite-document.ts';
import type { GeneratedItem } from './types.ts';

const SUITE_SLUG_PREFIX = 'suite-';

export interface RunCopy {
  sourceServerId: number;
  serverId: number;
}

export interface StoredRun {
  id: number;
  name: string;
  challengeId: number;
  document: SuiteDocument;
  createdAt: Date;
  copies: RunCopy[];
}

export interface NewRun {
  name: string;
  items: readonly GeneratedItem[];
  document: SuiteDocument;
  sources: readonly AnnotationServer[];
  settings: Partial<ChallengeSettings>;
}

/** Thrown inside the transaction so that it rolls back; the route answers 409. */
export class RunNameTakenError extends Error {
  constructor(readonly what: string) {
    super(`${what} exists already; choose another name`);
    this.name = 'RunNameTakenError';
  }
}

export class SuiteRunRepository {
  constructor(private readonly db: Database) {}

  async create(run: NewRun): Promise<{ challenge: Challenge; copies: AnnotationServer[] }> {
    return await this.db.transaction(async (tx) => {
      const slug = `${SUITE_SLUG_PREFIX}${run.name}`;
      // Enough room for every copy of one team (the team limit counts per challenge).
      const perTeam = Math.max(5, run.sources.length);
      const challenge = await new ChallengeRepository(tx).create({
        slug,
        name: `Test suite ${run.name}`,
        tasks: [mention.name],
        ...run.settings,
        serversPerTeam: perTeam,
      });
      if (!challenge) throw new RunNameTakenError(`a challenge with slug "${slug}"`);
      const inserted = await tx.query<{ id: number }>(
        'insert into testsuites (name, challenge_id, suite) values ($1, $2, $3) on conflict (name) do nothing returning id',
        [run.name, challenge.id, JSON.stringify(run.document)],
      );
      if (!inserted[0]) throw new RunNameTakenError(`a test suite named "${run.name}"`);
      const servers = new ServerRepository(tx);
      const copies: AnnotationServer[] = [];
      for (const source of run.sources) {
        // Same team, URL, method, concurrency; only MENTION, the one task of the run.
        const copy = await servers.create(
          {
            challengeId: challenge.id,
            teamId: source.teamId,
            name: `${source.name}@${source.challenge}`,
            url: source.url,
            tasks: [mention.name],
            method: source.method,
            concurrency: source.concurrency,
            sendMetadata: source.sendMetadata,
          },
          perTeam,
        );
        if (typeof copy === 'string') throw new Error(`could not copy server ${source.id} into ${slug}: ${copy}`);
        await tx.query('insert into testsuite_servers (testsuite_id, source_server_id, server_id) values ($1, $2, $3)', [
          inserted[0].id,
          source.id,
          copy.id,
        ]);
        copies.push(copy);
      }
      // One statement for the whole load; the order of the arrays is the queue order.
      await tx.query(
        `insert into articles (challenge_id, organiser_id, text, text_sha256)
         select $1, t.id, t.text, t.hash from unnest($2::text[], $3::text[], $4::text[]) with ordinality as t(id, text, hash, n) order by t.n`,
        [challenge.id, run.items.map((i) => i.id), run.items.map((i) => i.text), run.items.map((i) => sha256(i.text))],
      );
      return { challenge, copies };
    });
  }

  async byName(name: string): Promise<StoredRun | null> {
    const rows = await this.db.query<{ id: number; name: string; challenge_id: number; suite: SuiteDocument | string; created_at: Date }>(
      'select id, name, challenge_id, suite, created_at from testsuites where name = $1',
      [name],
    );
    const r = rows[0];
    if (!r) return null;
    const copies = await this.db.query<{ source_server_id: number; server_id: number }>(
      'select source_server_id, server_id from testsuite_servers where testsuite_id = $1 order by server_id',
      [r.id],
    );
    return {
      id: r.id,
      name: r.name,
      challengeId: r.challenge_id,
      document: typeof r.suite === 'string' ? (JSON.parse(r.suite) as SuiteDocument) : r.suite,
      createdAt: r.created_at,
      copies: copies.map((c) => ({ sourceServerId: c.source_server_id, serverId: c.server_id })),
    };
  }

  /** The stored MENTION answers of one server copy, by item id; items without an answer are absent. */
  async answers(challengeId: number, serverId: number): Promise<Map<string, MentionItem[]>> {
    const rows = await this.db.query<{ organiser_id: string; result: AnswerResult | string }>(
      `select a.organiser_id, an.result from answers an join articles a on a.id = an.article_id
       where a.challenge_id = $1 and an.server_id = $2`,
      [challengeId, serverId],
    );
    return new Map(
      rows.map((r) => {
        const result = typeof r.result === 'string' ? (JSON.parse(r.result) as AnswerResult) : r.result;
        return [r.organiser_id, result.MENTION ?? []];
      }),
    );
  }
}
