// `metaserver check-server --protocol …`: the hard articles through the JSON and
// PubAnnotation protocols (synchronous and asynchronous), to the TypeScript and Python
// sample servers and to a misbehaving one, judged as dispatch judges them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../src/cli/check-server.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyJsonServer, type FaultyJsonServer } from '../support/faulty-json-servers.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';

const samples: SampleServer[] = [];
let python: PythonServer;
let wrong: FaultyJsonServer;

beforeAll(async () => {
  samples.push(
    await startSampleServer({ port: 0, protocol: 'json' }),
    await startSampleServer({ port: 0, protocol: 'pubannotation', async: true }),
  );
  python = await startPythonServer(['--protocol', 'pubannotation', '--async']);
  // A span that ends before it begins.
  wrong = await startFaultyJsonServer('pubannotation', {
    kind: 'body',
    body: { denotations: [{ id: 'T1', span: { begin: 5, end: 4 }, obj: 'protein' }] },
  });
});
afterAll(async () => {
  await Promise.all([...samples.map((s) => s.close()), wrong?.close()]);
  python?.stop();
});

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCheckServerCommand(args, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

describe('metaserver check-server, every protocol', () => {
  it('json: every answer of the sample is valid, COREF given proteins included', async () => {
    const { code, out } = await run([samples[0].url, '--protocol', 'json', '--tasks', 'ACT,INT,IPT,MENTION,COREF']);
    expect(out).toMatch(/^check-server http:\/\/127\.0\.0\.1:\d+\/: protocol json \(JSON\), tasks ACT, INT, IPT, MENTION, COREF$/m);
    expect(out).toMatch(/^7 of 7 answers valid/m);
    expect(code).toBe(0);
  });

  it('pubannotation, asynchronous: MENTION and CREL by default (the tasks the protocol answers), every answer valid (TypeScript and Python samples)', async () => {
    for (const url of [samples[1].url, python.url]) {
      const { code, out } = await run([url, '--protocol', 'pubannotation', '--json']);
      const report = JSON.parse(out) as { protocol: string; tasks: string[]; articles: Array<{ outcome: string }> };
      expect(report).toMatchObject({ protocol: 'pubannotation', tasks: ['MENTION', 'CREL'] });
      expect(report.articles.map((a) => a.outcome)).toEqual(Array(7).fill('ok'));
      expect(code).toBe(0);
    }
  });

  it('lists what is wrong with a PubAnnotation answer, by denotation, and exits 1', async () => {
    const { code, out } = await run([wrong.url, '--protocol', 'pubannotation']);
    expect(out).toMatch(/^INVALID +\d+ ms {2}setup article/m);
    expect(out).toMatch(/- denotations\[0\]\.span: the span \[5, 4\) is empty or reversed; end must be greater than begin/);
    expect(code).toBe(1);
  });

  it('refuses a protocol that cannot answer the tasks, or an unknown one, with exit status 2', async () => {
    expect((await run([wrong.url, '--protocol', 'pubannotation', '--tasks', 'INT'])).code).toBe(2);
    expect((await run([wrong.url, '--protocol', 'soap'])).code).toBe(2);
  });
});
