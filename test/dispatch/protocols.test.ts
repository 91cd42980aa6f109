// One article through every annotator protocol in one challenge: the TypeScript sample
// server in XML-RPC, JSON and PubAnnotation (synchronous and asynchronous), and the Python
// sample in JSON and PubAnnotation (both forms), all real loopback servers. Each passes the
// setup check at registration, and all store the same MENTION answer — offsets in code
// points, past a character outside the BMP. The API says which protocol each speaks, and
// refuses a protocol that cannot be registered so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const TEXT = '😀 𝛼-synuclein (P37840) interacts with BRCA1 (P38398); it binds IL2R and TP53.';

let ms: TestMetaserver;
let token: string;
const samples: SampleServer[] = [];
const pythons: PythonServer[] = [];

interface Speaker {
  name: string;
  protocol: string;
  url: () => string;
}
const speakers: Speaker[] = [];

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 10 } });
  await ms.challenge('protocols', { name: 'Protocols', tasks: ['MENTION', 'INT'], serversPerTeam: 20 });
  token = (await ms.team('Polyglots')).token;
  const ts = async (protocol: 'xmlrpc' | 'json' | 'pubannotation', async = false) => {
    const s = await startSampleServer({ port: 0, protocol, async });
    samples.push(s);
    speakers.push({ name: `ts ${protocol}${async ? ' async' : ''}`, protocol, url: () => s.url });
  };
  const py = async (protocol: 'json' | 'pubannotation', async = false) => {
    const s = await startPythonServer(['--protocol', protocol, ...(async ? ['--async'] : [])]);
    pythons.push(s);
    speakers.push({ name: `python ${protocol}${async ? ' async' : ''}`, protocol, url: () => s.url });
  };
  await Promise.all([
    ts('xmlrpc'),
    ts('json'),
    ts('pubannotation'),
    ts('pubannotation', true),
    py('json'),
    py('pubannotation'),
    py('pubannotation', true),
  ]);
});
afterAll(async () => {
  await ms?.stop();
  await Promise.all(samples.map((s) => s.close()));
  for (const p of pythons) p.stop();
});

describe('one challenge, every protocol', () => {
  it('each passes the setup check and stores the same MENTION answer', async () => {
    const ids: number[] = [];
    for (const s of speakers) {
      const res = await ms.server('protocols', token, { name: s.name, url: s.url(), tasks: ['MENTION'], protocol: s.protocol });
      expect(res.protocol).toBe(s.protocol);
      expect(res.check, s.name).toMatchObject({ ok: true, outcome: 'ok', errors: [] });
      ids.push(res.id);
    }
    const listed = (await ms.request('GET', '/api/challenges/protocols/servers', undefined, token)).body as Array<{
      name: string;
      protocol: string;
    }>;
    expect(Object.fromEntries(listed.map((s) => [s.name, s.protocol]))).toEqual(
      Object.fromEntries(speakers.map((s) => [s.name, s.protocol])),
    );

    const article = (await ms.articles('protocols', [{ id: 'P1', text: TEXT }])).ids.P1;
    for (const id of ids) await ms.startServer(id, token);
    const answered = await waitFor(
      'every server to answer',
      async () => {
        const res = await ms.request('GET', `/api/articles/${article}`, undefined, ADMIN_TOKEN);
        return res.status === 200 && res.body.servers.length === speakers.length ? res.body : undefined;
      },
      30_000,
    );
    // Every protocol carries the sample's gene ids too (PubAnnotation as pubann:denotes attributes).
    const expected = (annotate(TEXT).mentions as Array<{ offset: number; mention: string; ids?: string[]; confidence: number }>).map(
      (m) => ({
        start: m.offset,
        end: m.offset + [...m.mention].length,
        text: m.mention,
        type: 'protein',
        ...(m.ids ? { ids: m.ids } : {}),
        confidence: m.confidence,
      }),
    );
    expect(expected.filter((m) => m.ids).map((m) => m.text)).toEqual(['BRCA1', 'TP53']);
    expect(expected.find((m) => m.text === 'BRCA1')!.start).toBe(38); // code points: 40 in UTF-16 units
    for (const server of answered.servers as Array<{ result: { MENTION: unknown } }>) expect(server.result.MENTION).toEqual(expected);
    // The API and the on-demand article page say which protocol each server speaks.
    expect((answered.servers as Array<{ name: string; protocol: string }>).map((s) => [s.name, s.protocol])).toEqual(
      speakers.map((s) => [s.name, s.protocol]),
    );
    const page = await ms.app!.inject({
      method: 'GET',
      url: `/fragments/articles/${article}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(page.statusCode).toBe(200);
    // The compact servers table names each server's team and protocol beside its name.
    for (const s of speakers) expect(page.body).toContain(`<td>${s.name} <span class="muted">(Polyglots, ${s.protocol})</span></td>`);
    // One attempt each: the asynchronous exchanges (POST, 303, GET) count as one.
    const attempts = await ms.database.db.query<{ n: number }>('select count(*)::int as n from attempts where server_id = any($1::int[])', [
      ids,
    ]);
    expect(attempts[0].n).toBe(speakers.length);
  });

  it('refuses a protocol that cannot be registered so, saying why', async () => {
    const url = samples[0].url;
    const tasks = await ms.request(
      'POST',
      '/api/challenges/protocols/servers',
      { name: 'pa int', url, tasks: ['INT'], protocol: 'pubannotation' },
      token,
    );
    expect(tasks.status).toBe(400);
    expect(tasks.body.error.message).toMatch(/PubAnnotation \(protocol "pubannotation"\) answers MENTION, CREL only, not INT/);
    const method = await ms.request(
      'POST',
      '/api/challenges/protocols/servers',
      { name: 'json method', url, tasks: ['MENTION'], protocol: 'json', method: 'Tagger.run' },
      token,
    );
    expect(method.status).toBe(400);
    expect(method.body.error.message).toMatch(/"method" is the XML-RPC method name; a server speaking JSON/);
    const unknown = await ms.request(
      'POST',
      '/api/challenges/protocols/servers',
      { name: 'soap', url, tasks: ['MENTION'], protocol: 'soap' },
      token,
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/protocol/);
    const none = (await ms.request('GET', '/api/challenges/protocols/servers', undefined, token)).body as Array<{ name: string }>;
    expect(none.map((s) => s.name)).not.toContain('pa int');
  });
});
