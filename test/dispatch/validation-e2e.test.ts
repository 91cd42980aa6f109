// Validation on the live path, with a real UniProt release index loaded: an invalid answer
// fails its attempts as `invalid` with the message in the server's error report; an unknown
// but well-formed accession is dropped with a warning, a secondary one mapped to its primary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/uniprot/build.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const fixtures = fileURLToPath(new URL('../fixtures/uniprot/', import.meta.url));
let dir: string;
let ms: TestMetaserver;
let token: string;
const servers: FaultyServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metaserver-uniprot-'));
  const index = join(dir, 'release.idx');
  await buildIndex({
    primaries: join(fixtures, 'primaries.txt'),
    secondary: join(fixtures, 'sec_ac.txt'),
    out: index,
    release: { name: 'TEST_2024', date: '2024-01-01' },
  });
  ms = await startTestMetaserver({ config: { uniprotIndex: index, checkTimeoutSeconds: 2 } });
  await ms.challenge('val', { name: 'Validation', maxAttempts: 2, retryDelaySeconds: 0 });
  await ms.articles('val', [{ id: 'V1', text: 'Haemoglobin and p53.' }]);
  token = (await ms.team('Validators')).token;
});
afterAll(async () => {
  await ms?.stop();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function run(name: string, normalizations: unknown[]) {
  const s = await startFaultyServer({ kind: 'custom', handler: () => ({ normalizations: normalizations as never }) });
  servers.push(s);
  const server = await ms.server('val', token, { name, url: s.url });
  await ms.startServer(server.id, token);
  return await waitFor(`${name} to settle`, async () => {
    const res = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
    return res.body.progress.done + res.body.progress.failed === 1 ? res.body : undefined;
  });
}

describe('validation with a UniProt release loaded', () => {
  it('shows the release in /healthz', async () => {
    const health = await ms.request('GET', '/healthz');
    expect(health.body.uniprot).toMatchObject({ name: 'TEST_2024' });
  });

  it('fails an answer with an invalid confidence as invalid, and says where', async () => {
    const status = await run('bad confidence', [{ dbid: 'P12345', confidence: 1.5 }]);
    expect(status.progress.failed).toBe(1);
    expect(status.errors).toHaveLength(2);
    for (const e of status.errors) {
      expect(e.kind).toBe('invalid');
      expect(e.detail).toContain('normalizations[0].confidence');
      expect(e.errors).toEqual([expect.objectContaining({ path: 'normalizations[0].confidence' })]);
    }
  });

  it('stores an answer without an unknown accession, with a warning naming the release', async () => {
    const status = await run('unknown accession', [
      { dbid: 'P12345', rank: 1 },
      { dbid: 'Q9ZZZ9', rank: 2 },
      { dbid: 'Q00001', rank: 3 },
    ]);
    expect(status.progress.done).toBe(1);
    const article = (await ms.request('GET', '/api/challenges/val/articles/V1', undefined, ADMIN_TOKEN)).body;
    const mine = article.servers.find((s: { serverId: number }) => s.serverId === status.id);
    // Q9ZZZ9 is well-formed but not in the release: dropped. Q00001 is a secondary of P12345, which is already there.
    expect(mine.result.INT.map((i: { accession: string }) => i.accession)).toEqual(['P12345']);
    const warnings = mine.warnings.map((w: { path: string; message: string }) => `${w.path}: ${w.message}`).join('\n');
    expect(warnings).toMatch(/normalizations\[1\].*Q9ZZZ9.*TEST_2024/);
    expect(warnings).toMatch(/normalizations\[2\].*Q00001/);
  });
});
