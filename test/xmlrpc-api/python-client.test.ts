// The BCMS-compatible XML-RPC API as a BCMS client sees it: Python's standard
// xmlrpc.client calls POST /xmlrpc on a listening meta-server and must get the same
// answers as the REST API, in the annotation-server wire form, with faults for mistakes.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const TEXT = 'Title: 𝛼-synuclein and BRCA1\n\nThe protein 𝛼-synuclein (P37840) binds BRCA1 (P38398) and TP53 in yeast.';

const CLIENT = `
import json, sys, xmlrpc.client
url, article, other, text = sys.argv[1:5]
p = xmlrpc.client.ServerProxy(url)
out = {"methods": p.system.listMethods(), "all": p.Annotations.getAnnotations(article),
       "list": p.Annotations.getAnnotationServerList(article)}
out["one"] = {sid: p.Annotations.getAnnotation(article, int(sid)) for sid in out["all"]}
# Offsets are code points: Python's own str indexing must find each mention at its offset.
out["offsetsMatch"] = all(text[m["offset"]:m["offset"] + len(m["mention"])] == m["mention"]
                          for answer in out["all"].values() for m in answer.get("mentions", []))
faults = {}
def fault(name, call):
    try:
        call()
        faults[name] = None
    except xmlrpc.client.Fault as e:
        faults[name] = [e.faultCode, e.faultString]
fault("unknownArticle", lambda: p.Annotations.getAnnotations("no-such-article"))
fault("unknownMethod", lambda: p.Annotations.getEverything(article))
fault("badParams", lambda: p.Annotations.getAnnotation(article))
fault("badServer", lambda: p.Annotations.getAnnotation(article, 999))
fault("challengeArticle", lambda: p.Annotations.getAnnotations(other))
out["faults"] = faults
print(json.dumps(out))
`;

function runPython(args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', CLIENT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`python3 exited with ${code}: ${stderr}`))));
  });
}

/** The REST answer written as the annotation-server protocol's wire form, by hand. */
function expectedWire(result: any): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  if (result.ACT) wire.interaction = [result.ACT.relevant, result.ACT.confidence];
  if (result.INT) wire.normalizations = result.INT.map((i: any) => ({ dbid: i.accession, dbname: 'UniProt', rank: i.rank, confidence: i.confidence }));
  if (result.IPT) wire.pairs = result.IPT.map((p: any) => ({ a: p.a, b: p.b, rank: p.rank, confidence: p.confidence }));
  if (result.MENTION) wire.mentions = result.MENTION.map((m: any) => ({ offset: m.start, mention: m.text, type: m.type, confidence: m.confidence }));
  return wire;
}

describe('BCMS-compatible XML-RPC API', () => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let python: PythonServer;

  beforeAll(async () => {
    ms = await startTestMetaserver();
    [sample, python] = await Promise.all([startSampleServer({ port: 0 }), startPythonServer()]);
    for (const [i, url] of [sample.url, python.url].entries()) {
      const team = await ms.request('POST', '/api/teams', { name: `X team ${i}`, contact: 'x@example.org' });
      const server = await ms.request('POST', '/api/challenges/live/servers', { name: `x${i}`, url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] }, team.body.token);
      await ms.request('POST', `/api/servers/${server.body.id}/start`, undefined, team.body.token);
    }
  });
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
    python?.stop();
  });

  it('gives Python xmlrpc.client the same answers as the REST API, and clear faults', async () => {
    const submitted = await ms.request('POST', '/api/articles', { text: TEXT });
    const articleId = submitted.body.id as string;
    const rest = await waitFor('the article to be done', async () => {
      const res = await ms.request('GET', `/api/articles/${articleId}`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(rest.servers).toHaveLength(2);
    await ms.request('POST', '/api/challenges', { slug: 'hidden', name: 'Hidden', tasks: ['ACT'] }, ADMIN_TOKEN);
    const loaded = await ms.request('POST', '/api/challenges/hidden/articles', { articles: [{ id: 'D1', text: 'not public' }] }, ADMIN_TOKEN);

    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const out = await runPython([`${address}/xmlrpc`, articleId, loaded.body.ids.D1, TEXT]);

    expect(out.methods).toEqual(['Annotations.getAnnotations', 'Annotations.getAnnotation', 'Annotations.getAnnotationServerList', 'system.listMethods']);
    const expected = Object.fromEntries(rest.servers.map((s: any) => [String(s.serverId), expectedWire(s.result)]));
    expect(out.all).toEqual(expected);
    expect(out.one).toEqual(expected);
    expect(out.offsetsMatch).toBe(true);
    expect(out.list).toEqual(rest.servers.map((s: any) => ({ id: s.serverId, name: s.name, team: s.team, state: 'done' })));
    // Both samples apply the same rules: their wire answers agree too.
    const [a, b] = Object.values(out.all);
    expect(a).toEqual(b);

    expect(out.faults.unknownArticle[0]).toBe(3);
    expect(out.faults.unknownArticle[1]).toMatch(/unknown article "no-such-article"/);
    expect(out.faults.unknownMethod).toEqual([1, expect.stringMatching(/unknown method "Annotations.getEverything"/)]);
    expect(out.faults.badParams).toEqual([2, expect.stringMatching(/takes 2 parameter/)]);
    expect(out.faults.badServer).toEqual([4, expect.stringMatching(/not sent to server 999/)]);
    // A challenge article is not served here, and not even admitted to exist.
    expect(out.faults.challengeArticle[0]).toBe(3);
  });

  it('answers an unreadable call with a fault and refuses bad UTF-8', async () => {
    const bad = await ms.app!.inject({ method: 'POST', url: '/xmlrpc', headers: { 'content-type': 'text/xml' }, payload: '<methodCall><oops' });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toMatch(/<name>faultCode<\/name><value><int>5<\/int>/);
    const latin1 = Buffer.concat([Buffer.from('<methodCall><methodName>system.listMethods</methodName><params><param><value>'), Buffer.from([0xe9]), Buffer.from('</value></param></params></methodCall>')]);
    const res = await ms.app!.inject({ method: 'POST', url: '/xmlrpc', headers: { 'content-type': 'text/xml' }, payload: latin1 });
    expect(res.body).toMatch(/not valid UTF-8/);
  });
});
