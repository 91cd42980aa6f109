// Concept ids on mentions through every protocol a server may speak: the TypeScript sample
// over XML-RPC and over JSON, and a pull agent's answers; each validated against the
// challenge's namespaces and the release lists loaded at start (NCBI gene_info, MeSH XML),
// stored in canonical form with the warnings, shown by /healthz; bad ids refused with their
// path and nothing stored.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../../src/sample/annotator.ts';
import { startSampleServer, type SampleServer } from '../../../src/sample/server.ts';
import { ADMIN_TOKEN, serverSettled, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/concept-ids');
// TP53 (7157) is in the gene_info excerpt, MDM2 (4193) is not; IL2R has no id in the sample's dictionary.
const TEXT = 'TP53 binds MDM2 and IL2R.';
const NAMESPACES = { protein: ['NCBIGene'], '*': ['MESH'] };

let ms: TestMetaserver;
let xmlrpcSample: SampleServer;
let jsonSample: SampleServer;
let token: string;
const servers: number[] = [];

beforeAll(async () => {
  xmlrpcSample = await startSampleServer({ port: 0 });
  jsonSample = await startSampleServer({ port: 0, protocol: 'json' });
  ms = await startTestMetaserver({
    config: { conceptIdLists: `${join(FIXTURES, 'Homo_sapiens.gene_info-excerpt')},${join(FIXTURES, 'desc-excerpt.xml')}` },
  });
  await ms.challenge('genes', { tasks: ['MENTION'], timeoutSeconds: 10, maxAttempts: 1, mentionNamespaces: NAMESPACES });
  await ms.articles('genes', [{ id: 'G1', text: TEXT }]);
  token = (await ms.team('Normalisers')).token;
  for (const [sample, protocol] of [
    [xmlrpcSample, 'xmlrpc'],
    [jsonSample, 'json'],
  ] as const) {
    const server = await ms.server('genes', token, { name: `sample-${protocol}`, url: sample.url, tasks: ['MENTION'], protocol });
    expect(server.check).toMatchObject({ ok: true, outcome: 'ok' });
    servers.push(server.id);
  }
  for (const id of servers) await ms.startServer(id, token);
  for (const id of servers) await serverSettled(ms, id, 1, 30_000);
}, 60_000);

afterAll(async () => {
  await ms?.stop();
  await xmlrpcSample?.close();
  await jsonSample?.close();
});

const storedFor = (serverId: number) =>
  ms.database.db.query<{ result: unknown; warnings: Array<{ path: string; message: string }> | null }>(
    'select an.result, an.warnings from answers an where an.server_id = $1',
    [serverId],
  );

describe('mention ids over XML-RPC and JSON', () => {
  it('are stored canonical from both protocols, with a warning for an id the release list lacks', async () => {
    for (const id of servers) {
      const rows = await storedFor(id);
      expect(rows).toHaveLength(1);
      expect(rows[0].result).toEqual({
        MENTION: [
          { start: 0, end: 4, text: 'TP53', type: 'protein', ids: ['NCBIGene:7157'], confidence: 0.9 },
          { start: 11, end: 15, text: 'MDM2', type: 'protein', ids: ['NCBIGene:4193'], confidence: 0.9 },
          { start: 20, end: 24, text: 'IL2R', type: 'protein', confidence: 0.9 },
        ],
      });
      // (the sample answers every task; the keys of the others are warned about as not asked)
      expect(rows[0].warnings?.filter((w) => w.path.startsWith('mentions'))).toEqual([
        {
          path: 'mentions[1].ids[0]',
          message: 'NCBIGene:4193 is not in the NCBI Gene release loaded (Homo_sapiens.gene_info-excerpt); kept — check the accession',
        },
      ]);
    }
  });

  it('/healthz names the lists loaded', async () => {
    const health = await ms.request('GET', '/healthz', undefined, ADMIN_TOKEN);
    expect(health.body.indexes.MENTION).toBe('NCBIGene 2 ids (Homo_sapiens.gene_info-excerpt); MESH 2 ids (desc-excerpt.xml)');
  });
});

describe('mention ids from a pull agent', () => {
  const lease = (id: number) => ms.request('POST', `/api/servers/${id}/leases?wait=5`, undefined, token);
  const answer = (leaseId: string, body: unknown) => ms.request('POST', `/api/leases/${leaseId}/answer`, body, token);

  it('are checked as in the other protocols: a namespace the challenge does not take, or a composite in one string, refused at its path and nothing stored', async () => {
    await ms.challenge('genes-pull', { tasks: ['MENTION'], timeoutSeconds: 10, maxAttempts: 1, mentionNamespaces: NAMESPACES });
    const server = await ms.server('genes-pull', token, { name: 'agent', tasks: ['MENTION'], protocol: 'pull' });
    const setup = await lease(server.id);
    expect((await answer(setup.body.lease, annotate(setup.body.article.text))).body.outcome).toBe('ok');
    const ids = (
      await ms.articles('genes-pull', [
        { id: 'P1', text: TEXT },
        { id: 'P2', text: TEXT },
      ])
    ).ids;
    await ms.startServer(server.id, token);
    const bad = [
      { mentions: [{ offset: 0, mention: 'TP53', type: 'protein', ids: ['MESH:D016158'] }] },
      { mentions: [{ offset: 0, mention: 'TP53', type: 'protein', ids: ['NCBIGene:7157|4193'] }] },
    ];
    const details: string[] = [];
    for (const body of bad) {
      const got = await lease(server.id);
      expect(got.status).toBe(200);
      const res = await answer(got.body.lease, body);
      expect(res.status).toBe(422);
      expect(res.body.error.details).toMatchObject({ stored: false, outcome: 'invalid' });
      details.push(res.body.error.message as string);
    }
    expect(details[0]).toContain(
      'mentions[0].ids[0]: namespace MESH ("MESH:D016158") is not accepted for "protein" mentions in this challenge (accepted: NCBIGene)',
    );
    expect(details[1]).toContain(
      'mentions[0].ids[0]: "NCBIGene:7157|4193" joins 2 ids in one string; send each as its own item of ids: ["NCBIGene:7157", "NCBIGene:4193"]',
    );
    for (const id of Object.values(ids)) {
      const article = await ms.request('GET', `/api/articles/${id}`, undefined, ADMIN_TOKEN);
      expect(article.body.servers.filter((s: { result?: unknown }) => s.result)).toEqual([]);
    }
  });

  it('a valid answer is stored with its ids, spelled canonical', async () => {
    await ms.challenge('genes-pull-ok', { tasks: ['MENTION'], timeoutSeconds: 10, maxAttempts: 1, mentionNamespaces: NAMESPACES });
    const server = await ms.server('genes-pull-ok', token, { name: 'agent', tasks: ['MENTION'], protocol: 'pull' });
    const setup = await lease(server.id);
    expect((await answer(setup.body.lease, annotate(setup.body.article.text))).body.outcome).toBe('ok');
    const ids = (await ms.articles('genes-pull-ok', [{ id: 'P1', text: TEXT }])).ids;
    await ms.startServer(server.id, token);
    const got = await lease(server.id);
    const res = await answer(got.body.lease, {
      mentions: [{ offset: 0, mention: 'TP53', type: 'protein', ids: ['NCBI Gene:7157', 'entrez:7157'] }],
    });
    expect(res.body).toMatchObject({ stored: true, outcome: 'ok' });
    const article = await ms.request('GET', `/api/articles/${ids.P1}`, undefined, ADMIN_TOKEN);
    expect(article.body.servers[0].result.MENTION).toEqual([{ start: 0, end: 4, text: 'TP53', type: 'protein', ids: ['NCBIGene:7157'] }]);
  });
});
