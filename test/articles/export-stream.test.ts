// The streamed export (GET …/export/:task/:format/stream) is the whole-body export's file,
// byte for byte, over more articles than one page holds; gzip (asked by the query or by
// Accept-Encoding) decompresses to the same; and it reads the corpus a bounded page at a
// time, whatever its size (counted in the reads, not timed).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runExportCommand } from '../../src/cli/export.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerRepository } from '../../src/articles/answer-repository.ts';
import { exportChunks, exportPages, type ExportRow } from '../../src/articles/export-stream.ts';
import { textAsSent } from '../../src/articles/input.ts';
import { mentionsC, TEXT_C } from '../formats/sample-articles.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const ARTICLES = 1234; // more than two pages of 500
const text = textAsSent(TEXT_C);
const mentions = mentionsC.map((m) => ({ ...m, text: textAsSent(m.text) }));

describe('streamed exports', () => {
  let ms: TestMetaserver;
  let serverId: number;
  let challengeId: number;
  let base: string;

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    const challenge = await ms.challenge('stream', { name: 'Stream', tasks: ['MENTION'] });
    challengeId = challenge.id;
    const team = await ms.team('Stream team');
    serverId = (
      await ms.server('stream', team.token, { name: 'tagger', url: 'http://127.0.0.1:9/', tasks: ['MENTION'] }, { background: true })
    ).id;
    // Articles and answers by SQL: the export reads what is stored, however it got there.
    // Ids sort differently as text and as numbers (PMC10 before PMC9), and one has none.
    await ms.database.db.query(
      `insert into articles (challenge_id, organiser_id, text, text_sha256)
       select $1, case when g = 7 then null else 'PMC' || g end, $2, md5(g::text) from generate_series(1, $3) g`,
      [challengeId, text, ARTICLES],
    );
    await ms.database.db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select id, $2, jsonb_build_object('MENTION', $3::jsonb), 1, 1, 1 from articles where challenge_id = $1`,
      [challengeId, serverId, JSON.stringify(mentions)],
    );
    base = `/api/challenges/stream/export/MENTION`;
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
  });

  const whole = async (format: string) => {
    const res = await ms.request('GET', `${base}/${format}?server=${serverId}`, undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    return (res.body as { files: Array<{ content: string }> }).files[0].content;
  };
  const streamed = (format: string, query = '', headers: Record<string, string> = {}) =>
    ms.app!.inject({
      method: 'GET',
      url: `${base}/${format}/stream?server=${serverId}${query}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'accept-encoding': 'identity', ...headers },
    });

  it.each(['bioc-json', 'bioc-xml', 'pubtator'])('%s streamed is the whole-body file byte for byte', async (format) => {
    const res = await streamed(format);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-documents']).toBe(String(ARTICLES));
    expect(res.body).toBe(await whole(format));
  });

  it('writes the documents in load order, whole or streamed: PMC9 before PMC10, as they were loaded', async () => {
    const ids = (content: string) => [...content.matchAll(/^(\S+)\|t\|/gm)].map((m) => m[1]);
    const whole_ = ids(await whole('pubtator'));
    expect(whole_.slice(0, 11)).toEqual([
      'PMC1',
      'PMC2',
      'PMC3',
      'PMC4',
      'PMC5',
      'PMC6',
      expect.any(String),
      'PMC8',
      'PMC9',
      'PMC10',
      'PMC11',
    ]);
    expect(ids((await streamed('pubtator')).body)).toEqual(whole_);
  });

  it('bioc-jsonl is the BioC JSON documents, one per line', async () => {
    const res = await streamed('bioc-jsonl');
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const { documents } = JSON.parse(await whole('bioc-json')) as { documents: unknown[] };
    expect(res.body).toBe(documents.map((d) => `${JSON.stringify(d)}\n`).join(''));
  });

  it('gzip=1 is a .gz of the same file; Accept-Encoding: gzip compresses the transfer', async () => {
    const file = await streamed('pubtator', '&gzip=1');
    expect(file.headers['content-type']).toBe('application/gzip');
    expect(file.headers['content-disposition']).toMatch(/\.pubtator\.gz"$/);
    expect(gunzipSync(file.rawPayload).toString('utf8')).toBe(await whole('pubtator'));
    const transfer = await streamed('bioc-jsonl', '', { 'accept-encoding': 'gzip' });
    expect(transfer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(transfer.rawPayload).toString('utf8').split('\n')).toHaveLength(ARTICLES + 1);
  });

  it('a format that does not carry the task is a 400 that names what does', async () => {
    const res = await streamed('bioc-jsonl');
    expect(res.statusCode).toBe(200);
    const wrong = await ms.app!.inject({
      method: 'GET',
      url: `/api/challenges/stream/export/INT/pubtator/stream?server=${serverId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('metaserver export streams into the file (.gz compressed) with progress on stderr', async () => {
    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const dir = mkdtempSync(join(tmpdir(), 'metaserver-stream-'));
    try {
      for (const [format, out] of [
        ['pubtator', join(dir, 'run.pubtator')],
        ['bioc-json', join(dir, 'run.bioc.json.gz')],
      ]) {
        const lines: string[] = [];
        const argv = ['--challenge', 'stream', '--task', 'MENTION', '--server', String(serverId), '--format', format, '--out', out];
        const code = await runExportCommand([...argv, '--url', address, '--token', ADMIN_TOKEN], {
          stdout: () => undefined,
          stderr: (s) => void lines.push(s),
          isTty: false,
          env: {},
        });
        expect(code, lines.join('')).toBe(0);
        const bytes = readFileSync(out);
        expect(out.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8')).toBe(await whole(format));
        expect(lines.join('')).toContain(`exported ${ARTICLES}/${ARTICLES} documents`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads 20,000 articles a page at a time, one page ahead of what was written at most', async () => {
    await ms.database.db.query(
      `insert into articles (challenge_id, organiser_id, text, text_sha256)
       select $1, 'BIG' || g, 'A small abstract.', md5(g::text) from generate_series(1, 20000) g`,
      [challengeId],
    );
    await ms.database.db.query(
      `insert into answers (article_id, server_id, result, attempt_n, ms, bytes)
       select id, $2, '{"MENTION": [{"start": 2, "end": 7, "text": "small"}]}'::jsonb, 1, 1, 1
       from articles where challenge_id = $1 and organiser_id like 'BIG%'`,
      [challengeId, serverId],
    );
    const answers = new AnswerRepository(ms.database.db);
    const reads: number[] = [];
    const readPage = async (after: string | null, limit: number): Promise<Array<ExportRow & { seq: string }>> => {
      const rows = await answers.exportPage(serverId, challengeId, 'MENTION', after, limit);
      reads.push(rows.length);
      return rows;
    };
    const context = { format: 'bioc-jsonl' as const, task: 'MENTION' as const, run: 'T1_S1', sourcedb: 'stream' };
    let lines = 0;
    let chunks = 0;
    for await (const chunk of exportChunks(context, exportPages(readPage, 1000))) {
      chunks += 1;
      lines += chunk.split('\n').length - 1;
      // The pages are read as the chunks are taken, never the corpus ahead of them.
      expect(reads.length).toBeLessThanOrEqual(chunks + 1);
    }
    expect(lines).toBe(20000 + ARTICLES);
    expect(Math.max(...reads)).toBe(1000);
    expect(reads).toHaveLength(Math.ceil((20000 + ARTICLES) / 1000));
  }, 120_000);
});
