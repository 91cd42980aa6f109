// The trained ensemble and the consensus as leaderboard rows, on a small seeded challenge:
// three servers' INT answers are written straight into the database (as dispatch would
// store them), the gold is loaded through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const DOCS = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6'];
// Per document i: gold G1, G2. A and B find both plus a wrong one of their own; C finds
// G1 and a wrong one. Voting (support ≥ 1.5 of 3) keeps exactly G1 (3) and G2 (2).
const g1 = (i: number) => `P1000${i}`;
const g2 = (i: number) => `Q2000${i}`;
const answersOf = (server: 'A' | 'B' | 'C', i: number): string[] =>
  server === 'A' ? [g1(i), g2(i), `O3000${i}`] : server === 'B' ? [g2(i), g1(i), `P4000${i}`] : [`Q5000${i}`, g1(i)];

describe('trained ensemble and consensus leaderboard rows', () => {
  let ms: TestMetaserver;
  const articleIds: Record<string, string> = {};
  const runNames: string[] = [];

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    await ms.challenge('ens', { name: 'Ensemble', tasks: ['ACT', 'INT'] });
    const articles = DOCS.map((id) => ({ id, text: `Article ${id}.` }));
    const loaded = await ms.articles('ens', articles);
    Object.assign(articleIds, loaded.ids);
    const url = `http://127.0.0.1:${await refusedPort()}/`;
    for (const name of ['A', 'B', 'C'] as const) {
      const team = await ms.team(`Team ${name}`);
      const server = await ms.server('ens', team.token, { name, url });
      runNames.push(`T${team.id}_S1`);
      for (const [i, doc] of DOCS.entries()) {
        const items = answersOf(name, i + 1).map((accession, k) => ({ accession, rank: k + 1, confidence: 1 / (k + 2) }));
        await ms.database.db.query(
          'insert into answers (article_id, server_id, result, attempt_n, ms, bytes) values ($1, $2, $3, 1, 1, 1)',
          [articleIds[doc], server.id, JSON.stringify({ INT: items })],
        );
        await ms.database.db.query(
          "insert into deliveries (article_id, server_id, state, attempts, last_outcome) values ($1, $2, 'done', 1, 'ok')",
          [articleIds[doc], server.id],
        );
      }
    }
    const gold = DOCS.flatMap((doc, i) => [`${doc}\t${g1(i + 1)}\n`, `${doc}\t${g2(i + 1)}\n`]).join('');
    const put = await ms.app!.inject({
      method: 'PUT',
      url: '/api/challenges/ens/gold/INT',
      payload: gold,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
    });
    expect(put.statusCode).toBe(200);
  });
  afterAll(async () => {
    await ms?.stop();
  });

  it('trains versioned models, lists them and applies one to an article', async () => {
    const first = await ms.request('POST', '/api/challenges/ens/ensembles/INT', {}, ADMIN_TOKEN);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ challenge: 'ens', task: 'INT', version: 1, runs: runNames, cutoffs: [10, 10, 10], lambda: 1 });
    expect(first.body.training).toMatchObject({ documents: 6, candidates: 6 * 5, positives: 12, converged: true });
    const second = await ms.request(
      'POST',
      '/api/challenges/ens/ensembles/INT',
      { cutoff: 2, lambda: 0.5, runs: runNames.slice(0, 2) },
      ADMIN_TOKEN,
    );
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ version: 2, runs: runNames.slice(0, 2), cutoffs: [2, 2], lambda: 0.5 });

    const list = await ms.request('GET', '/api/challenges/ens/ensembles/INT', undefined, ADMIN_TOKEN);
    expect(list.body.models.map((m: { version: number }) => m.version)).toEqual([1, 2]);

    // Applied to D1 (every run answered): the two gold accessions come first.
    const applied = await ms.request(
      'GET',
      `/api/articles/${articleIds.D1}/consensus?method=ensemble&model=${first.body.id}`,
      undefined,
      ADMIN_TOKEN,
    );
    expect(applied.body.consensus.method).toBe('ensemble');
    expect(applied.body.consensus.model).toMatchObject({ id: first.body.id, version: 1, task: 'INT' });
    const ranked = applied.body.consensus.INT.map((i: { accession: string }) => i.accession);
    expect(ranked.slice(0, 2).sort()).toEqual([g1(1), g2(1)]);
    expect(ranked).toHaveLength(5);

    // Mistakes are 4xx with a reason.
    expect((await ms.request('POST', '/api/challenges/ens/ensembles/ACT', {}, ADMIN_TOKEN)).status).toBe(400);
    expect((await ms.request('POST', '/api/challenges/ens/ensembles/INT', { runs: ['T99_S1'] }, ADMIN_TOKEN)).status).toBe(400);
    expect((await ms.request('POST', '/api/challenges/ens/ensembles/INT', {})).status).toBe(401);
  });

  it('scores the voting consensus and the latest ensemble as extra rows behind ?consensus=1', async () => {
    const plain = await ms.request('GET', '/api/challenges/ens/scores/INT', undefined, ADMIN_TOKEN);
    expect(plain.body.runs.map((r: { kind: string }) => r.kind).sort()).toEqual(['S', 'S', 'S']);

    const board = await ms.request('GET', '/api/challenges/ens/scores/INT?consensus=1', undefined, ADMIN_TOKEN);
    expect(board.status).toBe(200);
    const rows = board.body.runs as Array<{ run: string; kind: string; team: string; metrics: any }>;
    const vote = rows.find((r) => r.run === 'consensus-vote')!;
    expect(vote).toMatchObject({ kind: 'C', team: 'consensus' });
    // Voting keeps exactly the gold of every document: perfect precision and recall.
    expect(vote.metrics.macro.p).toBe(1);
    expect(vote.metrics.macro.r).toBe(1);
    expect(vote.metrics.macro.f).toBe(1);
    expect(rows[0].metrics.macro.f).toBe(1); // best first
    // The latest model (version 2) is the ensemble row.
    const ensemble = rows.find((r) => r.kind === 'C' && r.run.startsWith('consensus-ensemble'))!;
    expect(ensemble.run).toBe('consensus-ensemble-v2');
    expect(ensemble.metrics.macro.r).toBe(1);
    const tsvBoard = await ms.app!.inject({
      method: 'GET',
      url: '/api/challenges/ens/scores/INT?consensus=1&format=tsv',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(tsvBoard.body).toMatch(/consensus-vote\tC\tconsensus/);
  });
});
