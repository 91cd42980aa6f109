// Registration → dispatch → stored answer, through a real meta-server, Redis, database and
// a real loopback annotation server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

const TEXT = 'Title: 𝛼-synuclein and BRCA1\n\nThe protein 𝛼-synuclein (P37840) binds BRCA1 (P38398) and TP53 in yeast.';

function codePointSlice(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

describe.each(testDatabaseKinds())('dispatch through the TypeScript sample server (%s)', (databaseKind) => {
  let ms: TestMetaserver;
  let sample: SampleServer;

  beforeAll(async () => {
    ms = await startTestMetaserver({ databaseKind });
    sample = await startSampleServer({ port: 0 });
  });
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
  });

  it('registers, starts, sends the article and stores the answer once with code-point offsets', async () => {
    await ms.challenge('c1', { name: 'C1', tasks: ['ACT', 'INT', 'IPT', 'MENTION'] });
    const team = await ms.team('Team A');
    expect(team.token).toMatch(/^mst_/);

    const server = await ms.server('c1', team.token, { name: 'sample', url: sample.url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] });
    expect(server.state).toBe('paused');
    expect(server.check).toMatchObject({ ok: true, reachable: true, outcome: 'ok' });

    const loaded = await ms.articles('c1', [{ id: 'PMC1', text: TEXT }]);
    const articleId = loaded.ids.PMC1;

    const started = await ms.request('POST', `/api/servers/${server.id}/start`, undefined, team.token);
    expect(started.body).toMatchObject({ state: 'active' });
    expect(started.status).toBe(200);
    expect(started.body.state).toBe('active');

    const article = await waitFor('the article to be done', async () => {
      const res = await ms.request('GET', `/api/articles/${articleId}`, undefined, ADMIN_TOKEN);
      return res.status === 200 ? res.body : undefined;
    });
    expect(article.status).toBe('done');
    const entry = article.servers[0];
    expect(entry).toMatchObject({ serverId: server.id, state: 'done', attempts: 1 });
    const mentions = entry.result.MENTION as Array<{ start: number; end: number; text: string }>;
    expect(mentions.length).toBeGreaterThan(0);
    for (const m of mentions) expect(codePointSlice(TEXT, m.start, m.end)).toBe(m.text);
    const brca = mentions.find((m) => m.text === 'BRCA1')!;
    // 'Title: ' (7) + '𝛼' (1 code point, 2 UTF-16 units) + '-synuclein' (10) + ' and ' (5) = 23; UTF-16 would say 24.
    expect(brca.start).toBe(23);
    expect(TEXT.indexOf('BRCA1')).toBe(24);
    expect(entry.result.INT.map((i: { accession: string }) => i.accession)).toEqual(['P37840', 'P38398']);

    const response = await ms.request('GET', `/api/articles/${articleId}/responses/${server.id}`, undefined, team.token);
    expect(response.status).toBe(200);
    expect(response.body.attempts).toHaveLength(1);
    expect(response.body.attempts[0]).toMatchObject({ n: 1, outcome: 'ok' });

    const answers = await ms.database.db.query<{ n: number }>('select count(*)::int as n from answers where article_id = $1', [articleId]);
    expect(answers[0].n).toBe(1);

    const status = await ms.request('GET', `/api/servers/${server.id}`, undefined, team.token);
    expect(status.body.progress).toEqual({ queued: 0, active: 0, done: 1, failed: 0 });
    expect(status.body.timing.answered).toBe(1);
  });
});
