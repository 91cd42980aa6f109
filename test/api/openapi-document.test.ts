// The OpenAPI document is the API's contract with teams and organisers: a change to any
// route's path, parameters, schemas, access or summary shows here as a change of this file.
// Moving code about (the route modules' shape, issue 38) must leave it byte for byte as it
// was. A change made on purpose is written back with `npx vitest run test/api/openapi-document.test.ts --update`
// and reviewed with the rest of the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
});
afterAll(async () => {
  await ms?.stop();
});

describe('/openapi.json', () => {
  it('is the document the API publishes, unchanged: every path, operation and schema in its order', async () => {
    const res = await ms.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    await expect(`${JSON.stringify(res.body, null, 2)}\n`).toMatchFileSnapshot('../fixtures/openapi/openapi.json');
  });
});
