// The BCMS read API's rules, called in-process: the trained ensemble as a consensus method
// (listed once its challenge is closed), how articles and servers are named, which are
// served, the consensus options, introspection, and the wire types of an answer.
// Answers are written straight into the database, as dispatch would store them; the
// clients of real XML-RPC libraries are in clients.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerToWire } from '../../src/bcms/index.ts';
import { encodeMethodResponse, type XmlRpcValue } from '../../src/xmlrpc/codec.ts';
import { refusedPort } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const DOCS = ['D1', 'D2', 'D3', 'D4'];
const g1 = (i: number) => `P1000${i}`;
const g2 = (i: number) => `Q2000${i}`;
// Per training document i: gold g1(i), g2(i). A and B find both plus a wrong one; C one of them.
const trainingAnswer = (server: number, i: number): string[] =>
  [
    [g1(i), g2(i), `O3000${i}`],
    [g2(i), g1(i), `P4000${i}`],
    [`Q5000${i}`, g1(i)],
  ][server];
const LIVE_ANSWERS = [
  {
    INT: [
      { accession: 'P12345', rank: 1, confidence: 1, taxid: 9606 },
      { accession: 'Q99999', rank: 2, confidence: 0.25 },
    ],
    MENTION: [{ start: 2, end: 7, text: 'BRCA1', type: 'protein', confidence: 1 }],
  },
  { INT: [{ accession: 'P12345', rank: 1, confidence: 0.5 }], MENTION: [{ start: 2, end: 7, text: 'BRCA1', type: 'protein' }] },
];

describe('BCMS read API rules', () => {
  let ms: TestMetaserver;
  const liveServers: number[] = [];
  const challengeServers: number[] = [];
  const teams: number[] = [];
  let articleId: string;
  let waitingArticle: string;
  let hiddenArticle: string;
  let modelId: number;

  async function call(method: string, params: XmlRpcValue[] = []) {
    const res = await ms.xmlrpc(method, params);
    expect(res.status).toBe(200);
    return res;
  }
  const value = async (method: string, params: XmlRpcValue[] = []) => {
    const { decoded } = await call(method, params);
    if (decoded.kind !== 'value') throw new Error(`${method}: fault ${decoded.code} ${decoded.message}`);
    return decoded.value as any;
  };
  const fault = async (method: string, params: XmlRpcValue[] = []) => {
    const { decoded } = await call(method, params);
    return decoded.kind === 'fault' ? [decoded.code, decoded.message] : decoded;
  };

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    const db = ms.database.db;
    await ms.challenge('ens', { name: 'Ensemble' });
    const articles = DOCS.map((id) => ({ id, text: `Article ${id}.` }));
    const loaded = await ms.articles('ens', articles);
    hiddenArticle = loaded.ids.D1;
    const url = `http://127.0.0.1:${await refusedPort()}/`;
    const seed = async (article: string, server: number, result: object | null, state = 'done') => {
      await db.query("insert into deliveries (article_id, server_id, state, attempts, last_outcome) values ($1, $2, $3, 1, 'ok')", [
        article,
        server,
        state,
      ]);
      if (result)
        await db.query('insert into answers (article_id, server_id, result, attempt_n, ms, bytes) values ($1, $2, $3, 1, 1, 1)', [
          article,
          server,
          JSON.stringify(result),
        ]);
    };
    for (const n of [0, 1, 2]) {
      const team = await ms.team(`Team ${n}`);
      // Each team's first server of each challenge: run T<team>_S1 in both.
      const trained = await ms.server('ens', team.token, { name: `ens${n}`, url });
      const live = await ms.server('live', team.token, { name: `live${n}`, url, tasks: ['INT', 'MENTION'] });
      teams.push(team.id);
      challengeServers.push(trained.id);
      liveServers.push(live.id);
      for (const [i, doc] of DOCS.entries()) {
        await seed(loaded.ids[doc], trained.id, {
          INT: trainingAnswer(n, i + 1).map((accession, k) => ({ accession, rank: k + 1, confidence: 1 / (k + 2) })),
        });
      }
    }
    const gold = DOCS.flatMap((doc, i) => [`${doc}\t${g1(i + 1)}\n`, `${doc}\t${g2(i + 1)}\n`]).join('');
    await ms.app!.inject({
      method: 'PUT',
      url: '/api/challenges/ens/gold/INT',
      payload: gold,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/tab-separated-values' },
    });
    modelId = (await ms.request('POST', '/api/challenges/ens/ensembles/INT', {}, ADMIN_TOKEN)).body.id;

    // A live article answered by the first two live servers, still queued at the third.
    articleId = (await ms.request('POST', '/api/articles', { text: 'A BRCA1 text.', id: 'PMC42' })).body.id;
    await seed(articleId, liveServers[0], LIVE_ANSWERS[0]);
    await seed(articleId, liveServers[1], LIVE_ANSWERS[1]);
    await seed(articleId, liveServers[2], null, 'queued');
    waitingArticle = (await ms.request('POST', '/api/articles', { text: 'Another text.', id: '31415' })).body.id;
    await seed(waitingArticle, liveServers[0], null, 'failed');
  });
  afterAll(async () => {
    await ms?.stop();
  });

  it('offers a trained ensemble as a consensus method once its challenge is closed', async () => {
    expect(await value('Consensus.getConsensusMethods')).toEqual(['vote']);
    expect(await fault('Consensus.getConsensusMethod', ['ensemble:ens:INT'])).toEqual([6, expect.stringMatching(/lists them: vote$/)]);
    await ms.request('PATCH', '/api/challenges/ens', { phase: 'closed' }, ADMIN_TOKEN);
    expect(await value('Consensus.getConsensusMethods')).toEqual(['vote', 'ensemble:ens:INT']);
    expect(await value('Consensus.getConsensusMethod', ['ensemble:ens:INT'])).toEqual({
      provider: 'metaserver',
      method: 'maximum-entropy ensemble (BioCreative II.5)',
      id: 'ensemble:ens:INT',
      name: expect.stringMatching(/"Ensemble" for INT, version 1/),
    });

    const all = await value('Consensus.getConsensus', ['PMC42']);
    expect(Object.keys(all)).toEqual(['vote', 'ensemble:ens:INT']);
    const rest = (await ms.request('GET', `/api/articles/${articleId}/consensus?method=ensemble&model=${modelId}`)).body.consensus;
    expect(rest.runs).toEqual({ [`T${teams[0]}_S1`]: liveServers[0], [`T${teams[1]}_S1`]: liveServers[1], [`T${teams[2]}_S1`]: null });
    expect(all['ensemble:ens:INT']).toEqual({
      normalizations: rest.INT.map((i: any) => ({ dbid: i.accession, dbname: 'UniProt', rank: i.rank, confidence: i.confidence })),
    });
    expect(all.vote.normalizations.map((n: any) => n.dbid)).toEqual(['P12345', 'Q99999']);
    // Only the third server chosen: it has no answer, so neither method has a result.
    expect(await value('Consensus.getConsensus', ['PMC42', { servers: [liveServers[2]] }])).toEqual({ vote: {}, 'ensemble:ens:INT': {} });
    expect(await value('Consensus.getConsensus', ['PMC42', { methods: ['ensemble:ens:INT'], servers: [liveServers[0]] }])).toEqual({
      'ensemble:ens:INT': { normalizations: expect.any(Array) },
    });
  });

  it('names articles by int PubMed id, meta-server id or submitted id, and serves live articles only', async () => {
    expect(await value('Annotations.getAnnotationServerList', [31415])).toEqual([liveServers[0]]);
    expect(await value('Annotations.getAnnotationServerList', ['31415'])).toEqual([liveServers[0]]);
    expect(await value('Annotations.getAnnotationServerList', [waitingArticle])).toEqual([liveServers[0]]);
    expect(await value('Annotations.getAnnotationServerList', ['PMC42'])).toEqual(liveServers);
    expect(await fault('Annotations.getAnnotations', [0])).toEqual([2, expect.stringMatching(/a PubMed id is a positive int, not 0/)]);
    expect(await fault('Annotations.getAnnotations', [true])).toEqual([
      2,
      expect.stringMatching(/an int \(a PubMed id\) or a non-empty string/),
    ]);
    expect(await fault('Annotations.getAnnotations', [hiddenArticle])).toEqual([3, expect.stringMatching(/unknown article/)]);
    expect(await fault('Annotations.getAnnotations', ['D1'])).toEqual([3, expect.stringMatching(/unknown article "D1"/)]);
  });

  it('says why a server has no answer, and serves only the on-demand servers', async () => {
    expect(await fault('Annotations.getAnnotation', ['PMC42', liveServers[2]])).toEqual([
      4,
      expect.stringMatching(/no answer .*still working on it; ask again later/),
    ]);
    expect(await fault('Annotations.getAnnotation', [31415, liveServers[0]])).toEqual([4, expect.stringMatching(/failed on it for good/)]);
    expect(await fault('Annotations.getAnnotation', ['PMC42', 'x'])).toEqual([2, expect.stringMatching(/a server id is a positive int/)]);
    expect(await value('Resources.getServer', [liveServers[1]])).toEqual({
      id: liveServers[1],
      name: 'live1',
      team: 'Team 1',
      tasks: ['INT', 'MENTION'],
      state: 'paused',
    });
    expect(await fault('Resources.getServer', [challengeServers[0]])).toEqual([
      4,
      expect.stringMatching(/no on-demand annotation server has id .*Resources.getServerList\(\)/),
    ]);
    expect((await value('Resources.getServerList')).map((s: any) => s.id)).toEqual(liveServers);
  });

  it('checks the consensus options and says what to send', async () => {
    const bad = (options: XmlRpcValue) => fault('Consensus.getConsensus', ['PMC42', options]);
    expect(await bad({ servers: [] })).toEqual([2, expect.stringMatching(/servers is a non-empty array/)]);
    expect(await bad({ servers: [challengeServers[0]] })).toEqual([4, expect.stringMatching(/not sent to server/)]);
    expect(await bad({ weights: { x: 1 } })).toEqual([2, expect.stringMatching(/"x" is not a server id/)]);
    expect(await bad({ weights: { 1: -1 } })).toEqual([2, expect.stringMatching(/must be a number ≥ 0/)]);
    expect(await bad({ threshold: 150 })).toEqual([2, expect.stringMatching(/percentage .* 0 to 100/)]);
    expect(await bad({ methods: [1] })).toEqual([2, expect.stringMatching(/methods is a non-empty array of consensus method ids/)]);
    expect(await bad('vote')).toEqual([2, expect.stringMatching(/the options are a struct/)]);
    // A weights table naming servers the article never saw is fine; threshold 100 % keeps what both found.
    const strict = await value('Consensus.getConsensus', ['PMC42', { methods: ['vote'], weights: { 999: 4 }, threshold: 100 }]);
    expect(strict.vote.mentions).toEqual([{ offset: 2, mention: 'BRCA1', type: 'protein', confidence: 1 }]);
  });

  it('describes every method through introspection', async () => {
    const names: string[] = await value('system.listMethods');
    for (const name of names) {
      const signatures = await value('system.methodSignature', [name]);
      expect(signatures.length, name).toBeGreaterThan(0);
      expect((await value('system.methodHelp', [name])).startsWith(`${name}(`), name).toBe(true);
    }
    expect(await value('system.methodSignature', ['Consensus.getConsensus'])).toEqual([
      ['struct', 'int'],
      ['struct', 'string'],
      ['struct', 'int', 'struct'],
      ['struct', 'string', 'struct'],
    ]);
    expect(await fault('system.methodHelp', ['Nope.nope'])).toEqual([1, expect.stringMatching(/system.listMethods\(\) lists them/)]);
    expect(await fault('system.listMethods', ['extra'])).toEqual([
      2,
      expect.stringMatching(/takes 0 parameter\(s\), not 1: send system.listMethods\(\)/),
    ]);
  });

  it('writes confidences as doubles, 1.0 included, and ranks, taxids and offsets as ints', async () => {
    const { xml } = await call('Annotations.getAnnotation', ['PMC42', liveServers[0]]);
    expect(xml).toContain(
      '<member><name>rank</name><value><int>1</int></value></member><member><name>confidence</name><value><double>1.0</double></value></member><member><name>taxid</name><value><int>9606</int></value></member>',
    );
    expect(xml).toContain('<name>offset</name><value><int>2</int></value>');
    expect(xml).not.toMatch(/<name>confidence<\/name><value><int>/);
    // The wire form leaves out what the answer does not have.
    expect(
      encodeMethodResponse(answerToWire({ ACT: { relevant: true, confidence: 1 }, INT: [{ accession: 'P12345', rank: 1 }] })),
    ).toContain(
      '<member><name>interaction</name><value><array><data><value><boolean>1</boolean></value><value><double>1.0</double></value></data></array></value></member>' +
        '<member><name>normalizations</name><value><array><data><value><struct><member><name>dbid</name><value><string>P12345</string></value></member>' +
        '<member><name>dbname</name><value><string>UniProt</string></value></member><member><name>rank</name><value><int>1</int></value></member></struct>',
    );
  });
});
