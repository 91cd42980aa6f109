// /openapi.json describes the answers as well as the requests: every operation names the
// schema of its success and of its errors (the catalogue's error shape).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
});
afterAll(async () => {
  await ms?.stop();
});

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> };

describe('/openapi.json', () => {
  it('gives every operation a success and an error response, each with a schema', async () => {
    const doc = (await ms.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.length).toBeGreaterThan(30);
    const lacking: string[] = [];
    for (const { name, op } of operations) {
      const codes = Object.keys(op.responses ?? {});
      const success = codes.filter((c) => /^2/.test(c));
      if (success.length === 0) lacking.push(`${name}: no success response`);
      if (!codes.includes('4XX')) lacking.push(`${name}: no error response`);
      for (const code of codes) {
        if (code === '204') continue; // no body
        const content = op.responses![code].content ?? {};
        if (Object.values(content).every((c) => c.schema === undefined)) lacking.push(`${name} ${code}: no schema`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('describes the error shape with the catalogue codes', async () => {
    const doc = (await ms.request('GET', '/openapi.json')).body;
    const error = doc.paths['/api/challenges'].post.responses['4XX'].content['application/json'].schema;
    expect(error.properties.error.properties.code.enum).toContain('closed');
    expect(error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message']));
  });
});
