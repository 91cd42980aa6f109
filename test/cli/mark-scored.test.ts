// `metaserver mark-scored` against a listening meta-server: the counts, a test set named in a
// file (every other article background), a few marked either way, and the refusals: an
// unknown id (listed, nothing changed), a file that is not a list of ids, --only with others.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIdLines, runMarkScoredCommand } from '../../src/cli/mark-scored.ts';
import { runImportCommand } from '../../src/cli/import.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { captured } from '../support/captured-io.ts';

describe('metaserver mark-scored', () => {
  let ms: TestMetaserver;
  let address: string;
  let dir: string;
  const run = (...args: string[]) => {
    const io = captured({ METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN });
    return runMarkScoredCommand(['--challenge', 'marks', ...args], io).then((code) => ({ code, out: io.out, err: io.err }));
  };
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    await ms.challenge('marks', { tasks: ['INT'] });
    await ms.articles(
      'marks',
      ['1001', '1002', '1003', '1004', '1005'].map((id) => ({ id, text: `Article ${id} about P04637.` })),
    );
    dir = mkdtempSync(join(tmpdir(), 'metaserver-marks-'));
  });
  afterAll(async () => {
    await ms?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('prints the counts, sets the test set, and marks some either way', async () => {
    expect(JSON.parse((await run()).out)).toEqual({ challenge: 'marks', articles: 5, scored: 5, background: 0 });
    const only = await run('--only', file('test-set.txt', '# the test set\n1001\n 1003 \n\n'));
    expect(only.code).toBe(0);
    expect(JSON.parse(only.out)).toEqual({ challenge: 'marks', articles: 5, scored: 2, background: 3, changed: 3 });
    const some = await run('--scored', file('more.txt', '1002\n'), '--background', file('less.txt', '1001\r\n'));
    expect(some.code).toBe(0);
    expect(JSON.parse(some.out)).toMatchObject({ scored: 2, background: 3, changed: 2 });
  });

  it('imports background articles with `metaserver import --background`; importing them again changes no mark', async () => {
    const io = captured({ METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN });
    const pubtator = file(
      'background.pubtator',
      '2001|t|Background title one\n2001|a|About BRCA1.\n\n2002|t|Background title two\n2002|a|About TP53.\n',
    );
    expect(await runImportCommand(['--challenge', 'marks', '--background', pubtator], io)).toBe(0);
    expect(JSON.parse((await run()).out)).toMatchObject({ articles: 7, background: 5 });
    const again = captured({ METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(await runImportCommand(['--challenge', 'marks', pubtator], again)).toBe(0);
    expect(JSON.parse((await run()).out)).toMatchObject({ articles: 7, background: 5 });
  });

  it('lists the unknown ids and changes nothing', async () => {
    const refused = await run('--only', file('typos.txt', '1002\n1003\n10O4\nPMID1005\n'));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^metaserver mark-scored: PUT \/api\/challenges\/marks\/scored-articles answered HTTP 400: 2 organiser id\(s\) name no article/,
    );
    expect(refused.err).toMatch(/unknown organiser ids:\n10O4\nPMID1005\n$/);
    expect(JSON.parse((await run()).out)).toMatchObject({ scored: 2, background: 5 });
  });

  it('refuses a file that is not a list of ids, and --only beside the others, sending nothing', async () => {
    const bad = await run('--background', file('table.tsv', '1001\tyes\n'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/table\.tsv, line 1: "1001\tyes" is not an organiser id .*; nothing was sent/);
    const both = await run('--only', join(dir, 'more.txt'), '--scored', join(dir, 'more.txt'));
    expect(both.code).toBe(2);
    expect((await run('--only', join(dir, 'missing.txt'))).err).toMatch(/ENOENT.*nothing was sent/);
    expect(readIdLines('a\n#b\n\n c \n', 'ids')).toEqual(['a', 'c']);
  });
});
