// `metaserver check-server`: the hard articles sent to real loopback servers, each answer
// judged as dispatch would, the report with hints and times, and the exit status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../src/cli/check-server.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { checkArticles } from '../../src/servers/setup-check/probe-articles.ts';
import { refusedPort, startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';

let sample: SampleServer;
const faulty: FaultyServer[] = [];

beforeAll(async () => {
  sample = await startSampleServer({ port: 0 });
});
afterAll(async () => {
  await sample?.close();
  await Promise.all(faulty.map((s) => s.close()));
});

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCheckServerCommand(args, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

describe('metaserver check-server', () => {
  it('sends the hard articles as dispatch would: without CR, XML-illegal characters as spaces, 200 KB', () => {
    const articles = checkArticles();
    expect(articles.map((a) => a.name)).toEqual([
      'setup article',
      'characters outside the BMP',
      'accented letters only',
      'CR LF line ends',
      'XML markup and control characters',
      'a 200 KB article',
      'one character',
    ]);
    for (const a of articles) expect(a.text).not.toMatch(/[\r\u0000-\u0008]/);
    expect(articles.find((a) => a.id === 'check-crlf')!.text).toBe(
      'Title \n \nBRCA1 binds p53. \nIt interacts with MDM2 (Q00987).\nEnd. \n',
    );
    expect(Buffer.byteLength(articles.find((a) => a.id === 'check-long')!.text)).toBeGreaterThan(200_000);
    expect(articles.find((a) => a.id === 'check-one')!.text).toHaveLength(1);
  });

  it('exits 0 when every answer of a correct server is valid, with COREF given proteins', async () => {
    const { code, out } = await run([sample.url, '--tasks', 'ACT,INT,IPT,MENTION,COREF']);
    expect(out).toMatch(/each call sends 2 parameters: text \(the article\), given/);
    expect(out.match(/^ok +\d+ ms {2}/gm)).toHaveLength(7);
    expect(out).toMatch(/^7 of 7 answers valid; response times: median \d+ ms, slowest \d+ ms \(.+\)$/m);
    expect(code).toBe(0);
  });

  it('names UTF-16 offsets as the cause, per article, and exits 1', async () => {
    // A server that counts offsets as JavaScript indexes strings: right only for BMP text.
    const js = await startFaultyServer({
      kind: 'custom',
      handler: (text) => ({ mentions: [...text.matchAll(/BRCA1/g)].map((m) => ({ offset: m.index, mention: 'BRCA1' })) }),
    });
    faulty.push(js);
    const { code, out } = await run([js.url, '--tasks', 'MENTION', '--json']);
    const report = JSON.parse(out) as { articles: Array<{ id: string; outcome: string; detail?: string }> };
    const outcomes = Object.fromEntries(report.articles.map((a) => [a.id, a.outcome]));
    expect(outcomes).toEqual({
      'setup-check': 'invalid',
      'check-non-bmp': 'invalid',
      'check-accents': 'ok',
      'check-crlf': 'ok',
      'check-xml': 'ok',
      'check-long': 'invalid',
      'check-one': 'ok',
    });
    expect(report.articles.find((a) => a.id === 'check-non-bmp')!.detail).toMatch(
      /mentions\[0\]\.mention: "BRCA1" differs from the text at offset 22, .*; it occurs at offset 20 .*: 22 is where it starts counted in UTF-16 units/,
    );
    expect(code).toBe(1);
  });

  it('points at /RPC2 when the path answers 404, and stops after a refused connection', async () => {
    const missing = await startFaultyServer({ kind: 'http', status: 404 });
    faulty.push(missing);
    const { code, out } = await run([missing.url.replace('/RPC2', '/'), '--timeout', '5']);
    expect(out).toMatch(/^HTTP +\d+ ms {2}setup article/m);
    expect(out).toMatch(
      /answer only at \/RPC2 \(Python's SimpleXMLRPCServer, Perl's Frontier::Daemon, xmlrpc-c's Abyss server\): is the server's URL http:\/\/127\.0\.0\.1:\d+\/RPC2\?/,
    );
    expect(code).toBe(1);
    const refused = await run([`http://127.0.0.1:${await refusedPort()}/RPC2`]);
    expect(refused.out).toMatch(
      /^CONNECTION .*setup article[\s\S]*connection refused[\s\S]*could not be reached, so nothing else was sent/m,
    );
    expect(refused.code).toBe(1);
  });

  it('refuses bad usage with exit status 2', async () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true; // commander prints the error
    try {
      expect((await run([sample.url, '--tasks', 'NOPE'])).code).toBe(2);
      expect((await run(['ftp://example.org/'])).code).toBe(2);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
