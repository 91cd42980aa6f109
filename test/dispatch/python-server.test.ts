// The Python template server (standard library only) through the whole dispatch path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const TEXT = '😀 𝛼-synuclein (P37840) interacts with BRCA1 (P38398); it binds IL2R.';

let ms: TestMetaserver;
let python: PythonServer;

beforeAll(async () => {
  ms = await startTestMetaserver();
  python = await startPythonServer();
});
afterAll(async () => {
  await ms?.stop();
  python?.stop();
});

describe('dispatch to the Python sample server', () => {
  it('stores its answer with code-point offsets equal to the TypeScript annotator', async () => {
    await ms.challenge('py', { name: 'Py', tasks: ['ACT', 'INT', 'MENTION'] });
    const token = (await ms.team('Py team')).token;
    const server = await ms.server('py', token, { name: 'python', url: python.url, tasks: ['ACT', 'INT', 'MENTION'] });
    expect(server.check.ok).toBe(true);
    const ids = (await ms.articles('py', [{ id: 'P1', text: TEXT }])).ids;
    await ms.startServer(server.id, token);
    const article = await waitFor('the answer', async () => {
      const res = await ms.request('GET', `/api/articles/${ids.P1}`, undefined, ADMIN_TOKEN);
      return res.status === 200 ? res.body : undefined;
    });
    const result = article.servers[0].result;
    const expected = annotate(TEXT).mentions as Array<{ offset: number; mention: string }>;
    expect(result.MENTION.map((m: { start: number; text: string }) => [m.start, m.text])).toEqual(
      expected.map((m) => [m.offset, m.mention]),
    );
    // BRCA1 starts at code point 38; in UTF-16 units it would be 40.
    expect(result.MENTION.find((m: { text: string }) => m.text === 'BRCA1').start).toBe(38);
    expect(result.ACT.relevant).toBe(true);
  });
});
