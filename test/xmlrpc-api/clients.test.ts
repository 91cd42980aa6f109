// The BCMS read API as the old consumer clients see it: Python's xmlrpc.client, Perl's
// RPC::XML::Client and Ruby's XMLRPC::Client call POST /xmlrpc on a listening meta-server
// for an on-demand article that three live servers answered (the TypeScript and Python
// samples, and one that disagrees). Each must get the REST API's answers and consensus in
// the annotation-server wire form, with the types BCMS documented as each library decodes
// them (confidences double, 1.0 included; offsets, ranks and taxids int), and clear faults.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { disagreeingAnswer } from '../ondemand/helpers.ts';

const TEXT =
  'Title: 𝛼-synuclein and BRCA1\n\nThe protein 𝛼-synuclein (P37840) binds BRCA1 and TP53 (P04637) in yeast 😀; it forms a complex.';
const PMID = 12345678;
const TASKS = ['ACT', 'INT', 'IPT', 'MENTION'];

const CLIENTS = {
  python: ['python3', 'read_api.py'],
  perl: ['perl', 'read_api.pl'],
  ruby: ['ruby', 'read_api.rb'],
} as const;

function runClient(client: keyof typeof CLIENTS, args: object): Promise<any> {
  const [command, script] = CLIENTS[client];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [join(import.meta.dirname, 'clients', script), JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`${command} exited with ${code}: ${stderr}`)),
    );
  });
}

/** A REST answer (or consensus) written in the annotation-server protocol's wire form, by hand. */
function expectedWire(result: any): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  if (result.ACT) wire.interaction = [result.ACT.relevant, result.ACT.confidence];
  if (result.INT) wire.normalizations = result.INT.items ?? result.INT;
  if (result.IPT) wire.pairs = result.IPT.items ?? result.IPT;
  if (result.MENTION) wire.mentions = result.MENTION.items ?? result.MENTION;
  wire.normalizations &&= (wire.normalizations as any[]).map((i) => ({
    dbid: i.accession,
    dbname: 'UniProt',
    rank: i.rank,
    confidence: i.confidence,
  }));
  wire.pairs &&= (wire.pairs as any[]).map((p) => ({ a: p.a, b: p.b, rank: p.rank, confidence: p.confidence }));
  wire.mentions &&= (wire.mentions as any[]).map((m) => ({
    offset: m.start,
    mention: m.text,
    type: m.type,
    ids: m.ids,
    confidence: m.confidence,
  }));
  return wire;
}

describe('BCMS read API through Python, Perl and Ruby XML-RPC clients', () => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let python: PythonServer;
  let third: FaultyServer;
  const ids: number[] = [];
  let args: Record<string, unknown>;
  let rest: any;
  const restConsensus: Record<string, any> = {};

  beforeAll(async () => {
    ms = await startTestMetaserver();
    [sample, python, third] = await Promise.all([
      startSampleServer({ port: 0 }),
      startPythonServer(),
      startFaultyServer({ kind: 'custom', handler: disagreeingAnswer }),
    ]);
    for (const [i, url] of [sample.url, python.url, third.url].entries()) {
      const team = await ms.team(`X team ${i}`);
      const server = await ms.server('live', team.token, { name: `x${i}`, url, tasks: TASKS });
      await ms.startServer(server.id, team.token);
      ids.push(server.id);
    }
    const submitted = await ms.request('POST', '/api/articles', { text: TEXT, id: String(PMID) });
    const articleId = submitted.body.id as string;
    rest = await waitFor('the article to be done', async () => {
      const res = await ms.request('GET', `/api/articles/${articleId}`);
      return res.status === 200 ? res.body : undefined;
    });
    await ms.challenge('hidden', { name: 'Hidden', tasks: ['ACT'] });
    const loaded = await ms.articles('hidden', [{ id: 'D1', text: 'not public' }]);
    // The disagreeing server weighs 3 of 5 and an item needs 60 %: only what it found survives.
    const [typescriptId, pythonId, thirdId] = ids;
    // The REST consensus for each option set the clients send; `servers` there is weight 0
    // for the others. Two identical answers (pair): every confidence is exactly 1.
    const queries = { default: '', weighted: `?weights=${thirdId}:3&threshold=0.6`, pair: `?weights=${thirdId}:0` };
    for (const [name, query] of Object.entries(queries)) {
      restConsensus[name] = (await ms.request('GET', `/api/articles/${articleId}/consensus${query}`)).body.consensus;
    }
    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    args = {
      url: `${address}/xmlrpc`,
      article: articleId,
      pmid: PMID,
      hidden: loaded.ids.D1,
      weighted: { methods: ['vote'], weights: { [String(thirdId)]: 3 }, threshold: 60 },
      pair: { servers: [typescriptId, pythonId] },
    };
  });
  afterAll(async () => {
    await ms?.stop();
    await Promise.all([sample?.close(), third?.close()]);
    python?.stop();
  });

  it.each(Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>)(
    '%s reads annotations, consensus and servers with the documented types',
    async (client) => {
      const out = await runClient(client, args);

      expect(out.methods).toEqual([
        'Annotations.getAnnotationServerList',
        'Annotations.getAnnotations',
        'Annotations.getAnnotation',
        'Consensus.getConsensusMethods',
        'Consensus.getConsensusMethod',
        'Consensus.getConsensus',
        'Resources.getServerList',
        'Resources.getServer',
        'system.listMethods',
        'system.methodHelp',
        'system.methodSignature',
      ]);
      expect(out.help).toMatch(/^Annotations\.getAnnotation\(article: int\|string, serverId: int\) → struct\. /);
      expect(out.signature).toEqual([
        ['struct', 'int', 'int'],
        ['struct', 'string', 'int'],
      ]);

      // Server ids as ints, by PubMed id (int) and by the meta-server's id alike.
      expect(out.serverList).toEqual(ids);
      expect(out.serverListById).toEqual(ids);
      const servers = rest.servers.map((s: any) => ({ id: s.serverId, name: s.name, team: s.team, tasks: TASKS, state: 'active' }));
      expect(out.resources).toEqual(servers);
      expect(Object.values(out.servers)).toEqual(servers);

      const expected = Object.fromEntries(rest.servers.map((s: any) => [String(s.serverId), expectedWire(s.result)]));
      expect(out.all).toEqual(expected);
      expect(out.allById).toEqual(expected);
      expect(out.one).toEqual(expected);
      // Offsets are code points: BRCA1 follows a character outside the BMP.
      const brca1 = (out.all[String(ids[0])].mentions as any[]).find((m) => m.mention === 'BRCA1');
      expect(brca1.offset).toBe(Array.from(TEXT.slice(0, TEXT.indexOf('BRCA1'))).length);
      expect(brca1.offset).toBe(TEXT.indexOf('BRCA1') - 1);

      expect(out.consensusMethods).toEqual(['vote']);
      expect(out.consensusMethod).toEqual({
        id: 'vote',
        provider: 'metaserver',
        method: 'weighted majority voting',
        name: expect.stringMatching(/voting/i),
      });
      expect(out.consensus).toEqual({ vote: expectedWire(restConsensus.default) });
      expect(out.weighted).toEqual({ vote: expectedWire(restConsensus.weighted) });
      expect(out.weighted).not.toEqual(out.consensus);
      // P37840 (found by the two samples: 2 of 5) falls below 60 %; the third's two stay.
      expect(out.weighted.vote.normalizations.map((n: any) => n.dbid)).toEqual(['P04637', 'P12345']);
      expect(out.consensus.vote.normalizations.map((n: any) => n.dbid)).toEqual(['P04637', 'P37840']);
      expect(out.pair).toEqual({ vote: expectedWire(restConsensus.pair) });
      // Integral confidences (1.0) are in there, and still went out as doubles.
      expect(out.pair.vote.interaction).toEqual([true, 1]);
      expect(out.pair.vote.normalizations.every((n: any) => n.confidence === 1)).toBe(true);

      expect(out.types).toEqual({ confidence: ['double'], offset: ['int'], rank: ['int'], interaction: ['boolean,double'] });

      const f = out.faults;
      expect(f.unknownArticle).toEqual([
        3,
        expect.stringMatching(/unknown article "no-such-article".*send the id that POST \/api\/articles answered/),
      ]);
      expect(f.unknownPmid).toEqual([3, expect.stringMatching(/unknown article 99999999/)]);
      // A challenge article is not served here, and not even admitted to exist.
      expect(f.challengeArticle).toEqual([3, expect.stringMatching(/unknown article/)]);
      expect(f.unknownMethod).toEqual([
        1,
        expect.stringMatching(/unknown method "Annotations.getEverything"; this server answers .*Annotations.getAnnotation,/),
      ]);
      expect(f.badParams).toEqual([
        2,
        expect.stringMatching(/takes 2 parameter.*send Annotations.getAnnotation\(article: int\|string, serverId: int\)/),
      ]);
      expect(f.badServer).toEqual([4, expect.stringMatching(/not sent to server 999; Annotations.getAnnotationServerList/)]);
      expect(f.unknownConsensusMethod).toEqual([
        6,
        expect.stringMatching(/unknown consensus method "nope"; Consensus.getConsensusMethods\(\) lists them: vote/),
      ]);
      expect(f.badOption).toEqual([
        2,
        expect.stringMatching(/unknown option "colour"; the options are servers, methods, weights, threshold/),
      ]);
    },
  );

  it('answers an unreadable call with a fault and refuses bad UTF-8', async () => {
    const bad = await ms.app!.inject({
      method: 'POST',
      url: '/xmlrpc',
      headers: { 'content-type': 'text/xml' },
      payload: '<methodCall><oops',
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toMatch(/<name>faultCode<\/name><value><int>5<\/int>/);
    const latin1 = Buffer.concat([
      Buffer.from('<methodCall><methodName>system.listMethods</methodName><params><param><value>'),
      Buffer.from([0xe9]),
      Buffer.from('</value></param></params></methodCall>'),
    ]);
    const res = await ms.app!.inject({ method: 'POST', url: '/xmlrpc', headers: { 'content-type': 'text/xml' }, payload: latin1 });
    expect(res.body).toMatch(/not valid UTF-8/);
  });
});
