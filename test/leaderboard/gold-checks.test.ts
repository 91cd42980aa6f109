// Gold is held to the rules a server's answer is held to: the gold form's column count, the
// UniProt accession pattern and, with a release loaded, the release (warnings naming the
// accessions it does not hold as primary). A refused gold leaves the previous one in place;
// an accepted one says which gold it replaced. The release is a real index built from the
// fixture files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/uniprot/build.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send } from './helpers.ts';
import { storedGold } from '../support/stored-gold.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uniprot');
const dir = mkdtempSync(join(tmpdir(), 'gold-checks-'));
let ms: TestMetaserver;

const putGold = (task: string, body: string) => send(ms, 'PUT', `/api/challenges/gc/gold/${task}`, { body, token: ADMIN_TOKEN });

beforeAll(async () => {
  const index = join(dir, 'release.idx');
  await buildIndex({
    primaries: join(FIXTURES, 'primaries.txt'),
    secondary: join(FIXTURES, 'sec_ac.txt'),
    out: index,
    release: { name: 'TEST_2024' },
  });
  ms = await startTestMetaserver({ workers: false, config: { uniprotIndex: index } });
  await ms.challenge('gc', { name: 'Gold checks', tasks: ['ACT', 'INT', 'IPT'] });
});
afterAll(async () => {
  await ms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('gold standard checks', () => {
  it('refuses an ACT line with an extra column, naming the line and the columns, and keeps the previous gold', async () => {
    expect((await putGold('ACT', 'd1\t1\nd2\t0\n')).status).toBe(200);
    const bad = await putGold('ACT', 'd1\t1\nd2\t0\textra\n');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 2: expected 2 tab-separated columns \(docid, classification\), found 3/);
    expect(bad.json.error.message).toMatch(/nothing was stored/);
    expect(bad.json.error.details).toMatchObject({ line: 2 });
    expect(await storedGold(ms, 'gc', 'ACT')).toBe('d1\t1\nd2\t0\n');
  });

  it('refuses BRCA1 as an INT accession, as a server answer with it is refused', async () => {
    const bad = await putGold('INT', 'd1\tP12345\nd2\tBRCA1\n');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 2: column 2 \(accession\): "BRCA1" does not match the UniProt accession pattern/);
    expect(await storedGold(ms, 'gc', 'INT')).toBeUndefined();
    // An isoform in an IPT pair: the second accession column, named.
    const pair = await putGold('IPT', 'd1\tP12345\tP04637-2\n');
    expect(pair.status).toBe(400);
    expect(pair.json.error.message).toMatch(/column 3 \(accession B\): "P04637-2" is an isoform identifier/);
  });

  it('warns about accessions the loaded release holds only as secondary or not at all, and says what it replaced', async () => {
    const first = await putGold('INT', 'd1\tP12345\n');
    expect(first.status).toBe(200);
    expect(first.json.replaced).toBeNull();
    expect(first.json.warnings).toEqual([]);
    const second = await putGold('INT', 'd1\tP12345\nd1\tQ00001\nd2\tO99999\n');
    expect(second.status).toBe(200);
    expect(second.json.replaced).toMatchObject({ documents: 1, items: 1 });
    expect(Date.parse(second.json.replaced.loadedAt)).not.toBeNaN();
    expect(second.json.warnings).toEqual([
      expect.stringMatching(/^line 2: Q00001 is a secondary accession in UniProt release TEST_2024 \(primary P12345\)/),
      expect.stringMatching(/^line 3: O99999 is not an accession of UniProt release TEST_2024/),
    ]);
    expect(await storedGold(ms, 'gc', 'INT')).toBe('d1\tP12345\nd1\tQ00001\nd2\tO99999\n');
  });
});
