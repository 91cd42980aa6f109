// `metaserver import` and `metaserver export` round trip against a listening meta-server:
// a temp directory of .txt/.nxml articles goes in, the sample server annotates them, and
// the answers come back out as files in several formats.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../src/cli/export.ts';
import { runImportCommand } from '../../src/cli/import.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { captured } from '../support/captured-io.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'metaserver.js');

describe('metaserver import / export', () => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let address: string;
  let dir: string;
  let serverId: number;

  beforeAll(async () => {
    ms = await startTestMetaserver();
    sample = await startSampleServer({ port: 0 });
    address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    await ms.challenge('cli', { name: 'CLI', tasks: ['ACT', 'INT', 'MENTION'] });
    const team = await ms.team('CLI team');
    const server = await ms.server('cli', team.token, { name: 'sample', url: sample.url, tasks: ['ACT', 'INT', 'MENTION'] });
    serverId = server.id;
    await ms.startServer(serverId, team.token);
    dir = mkdtempSync(join(tmpdir(), 'metaserver-cli-'));
    writeFileSync(join(dir, 'PMC1.txt'), 'BRCA1 binds TP53 (P04637) and 𝛼-synuclein (P37840).\n');
    writeFileSync(join(dir, 'PMC3.txt'), 'No proteins here.\n');
    copyFileSync(join(import.meta.dirname, '..', 'fixtures', 'jats', 'consensus.nxml'), join(dir, 'PMC2.nxml'));
    writeFileSync(join(dir, 'notes.md'), 'not an article');
  });
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('imports a directory in batches with progress, and exports the answers in several formats', async () => {
    const io = captured({ METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(await runImportCommand(['--challenge', 'cli', '--batch', '2', dir], io)).toBe(0);
    // The directory's notes.md is no article: skipped and named, never stored as one.
    expect(io.err).toMatch(/^metaserver import: skipped .*notes\.md: .*holds text/m);
    expect(io.err).toMatch(/JATS article ids: 1 from the file name \(PMC2\)/);
    expect(io.err).toMatch(/imported 2\/3 articles\nimported 3\/3 articles\n$/);
    const summary = JSON.parse(io.out);
    expect(summary).toMatchObject({ challenge: 'cli', files: 3, created: 3, skipped: [{ file: join(dir, 'notes.md') }] });
    expect(Object.keys(summary.ids).sort()).toEqual(['PMC1', 'PMC2', 'PMC3']);

    const answers = new Map<string, any>();
    for (const [doc, id] of Object.entries<string>(summary.ids)) {
      answers.set(
        doc,
        await waitFor(`${doc} to be done`, async () => {
          const res = await ms.request('GET', `/api/articles/${id}`, undefined, ADMIN_TOKEN);
          return res.status === 200 ? res.body : undefined;
        }),
      );
    }
    expect(answers.get('PMC2').sourceFormat).toBe('jats');

    const out = join(dir, 'out');
    const common = ['--challenge', 'cli', '--server', String(serverId), '--url', address, '--token', ADMIN_TOKEN];
    expect(await runExportCommand([...common, '--task', 'INT', '--format', 'tsv', '--out', join(out, 'int.tsv')], captured())).toBe(0);
    const route = await ms.app!.inject({
      method: 'GET',
      url: `/api/challenges/cli/export/INT?server=${serverId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(readFileSync(join(out, 'int.tsv'), 'utf8')).toBe(route.body);
    expect(route.body).toContain('PMC1\tP04637\t1\t');

    expect(await runExportCommand([...common, '--task', 'MENTION', '--format', 'brat', '--out', join(out, 'brat')], captured())).toBe(0);
    expect(readdirSync(join(out, 'brat')).sort()).toEqual(['PMC1.ann', 'PMC1.txt', 'PMC2.ann', 'PMC2.txt', 'PMC3.ann', 'PMC3.txt']);
    for (const doc of ['PMC1', 'PMC2']) {
      const view = answers.get(doc);
      expect(readFileSync(join(out, 'brat', `${doc}.txt`), 'utf8')).toBe(view.text);
      const spans = readFileSync(join(out, 'brat', `${doc}.ann`), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('T'))
        .map((l) => l.split('\t')[1]);
      expect(spans).toEqual(view.servers[0].result.MENTION.map((m: any) => `protein ${m.start} ${m.end}`));
    }

    expect(
      await runExportCommand([...common, '--task', 'MENTION', '--format', 'bioc-json', '--out', join(out, 'm.json')], captured()),
    ).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'm.json'), 'utf8')).documents.map((d: { id: string }) => d.id)).toEqual([
      'PMC1',
      'PMC2',
      'PMC3',
    ]);

    // Mistakes: a format that cannot carry the task, a server that does not exist.
    const wrong = captured();
    expect(await runExportCommand([...common, '--task', 'INT', '--format', 'brat', '--out', join(out, 'x')], wrong)).toBe(1);
    expect(wrong.err).toMatch(/brat carries MENTION, REL, not INT/);
    const missing = captured();
    expect(
      await runExportCommand(
        [
          '--challenge',
          'cli',
          '--server',
          '999',
          '--url',
          address,
          '--token',
          ADMIN_TOKEN,
          '--task',
          'INT',
          '--format',
          'tsv',
          '--out',
          join(out, 'y'),
        ],
        missing,
      ),
    ).toBe(1);
    expect(existsSync(join(out, 'y'))).toBe(false);
  });

  it('runs as `metaserver import`, and a second import of the same files creates nothing', async () => {
    const child = spawn(process.execPath, [BIN, 'import', '--challenge', 'cli', dir], {
      env: { ...process.env, METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('imported 3/3 articles');
    expect(JSON.parse(stdout)).toMatchObject({ files: 3, created: 0 });
  });
});
