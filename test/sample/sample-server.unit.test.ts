import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { annotate } from '../../src/sample/annotator.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { callXmlRpc, type CallOutcome } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall, type XmlRpcValue } from '../../src/xmlrpc/codec.ts';

const TEXT = '𝛼-synuclein (P37840) binds BRCA1 😀 and Q9UQ84. It interacts with IL2R.';
let server: SampleServer;

beforeAll(async () => {
  server = await startSampleServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

function call(method: string, params: XmlRpcValue[], url = server.url): Promise<CallOutcome> {
  return callXmlRpc({ url, body: encodeMethodCall(method, params), deadlineMs: 5_000, maxResponseBytes: 1_000_000 });
}

describe('sample server over HTTP', () => {
  it('listens on a loopback URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('answers (text) and (text, given, meta) with the sample annotator', async () => {
    expect(await call('Annotator.getAnnotation', [TEXT])).toMatchObject({ ok: true, value: annotate(TEXT) });
    const b = Array.from(TEXT).indexOf('B');
    const given = `T1\tProtein ${b} ${b + 5}\tBRCA1`;
    const outcome = await call('Annotator.getAnnotation', [TEXT, given, { article: 'PMC1', tasks: ['COREF'] }]);
    expect(outcome).toMatchObject({ ok: true, value: annotate(TEXT, given) });
    expect(outcome.ok && (outcome.value as { coref: string }).coref).toMatch(/^T2\tExp /);
  });

  it('faults on an unknown method with code 1', async () => {
    expect(await call('Other.method', [TEXT])).toMatchObject({
      ok: false,
      kind: 'fault',
      faultCode: 1,
      detail: expect.stringMatching(/^fault 1: unknown method "Other\.method"/),
    });
  });

  it('faults on wrong parameter types', async () => {
    expect(await call('Annotator.getAnnotation', [42])).toMatchObject({ ok: false, kind: 'fault', faultCode: 3 });
  });

  it('refuses GET with 400', async () => {
    const res = await request(server.url, { method: 'GET' });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toMatch(/XML-RPC server/);
  });

  it('answers a custom method name', async () => {
    const custom = await startSampleServer({ port: 0, method: 'Tagger.run' });
    try {
      expect((await call('Tagger.run', ['BRCA1'], custom.url)).ok).toBe(true);
      expect(await call('Annotator.getAnnotation', ['BRCA1'], custom.url)).toMatchObject({ ok: false, kind: 'fault' });
    } finally {
      await custom.close();
    }
  });
});
