// `metaserver score NORM`: PubTator and BioC files, --type, the report's shape, exit codes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { score, tsv } from '../support/score-cli.ts';

let dir: string;
const path = (name: string) => join(dir, name);
const HEAD = ['7|t|aspirin and fever', '7|a|breast and ovarian cancer'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'score-norm-'));
  // Offsets: "aspirin" 0–7, "fever" 12–17, the abstract starts at 18: "breast and ovarian cancer" 18–43.
  await writeFile(
    path('gold.pubtator'),
    tsv(
      ...HEAD,
      '7 | 0 | 7 | aspirin | Chemical | D001241',
      '7 | 12 | 17 | fever | Disease | D005334',
      '7 | 18 | 43 | breast and ovarian cancer | Disease | D001943|D010051',
    ),
  );
  await writeFile(
    path('run.pubtator'),
    tsv(
      ...HEAD,
      '7 | 0 | 7 | aspirin | Chemical | MESH:D001241',
      '7 | 12 | 16 | feve | Disease | D005334',
      '7 | 18 | 43 | breast and ovarian cancer | Disease | D001943',
    ),
  );
  await writeFile(
    path('bad.pubtator'),
    tsv(...HEAD, '7 | 0 | 7 | aspirin | Chemical | D001241', '7 | 18 | 43 | breast and ovarian cancer | Disease | D001943|ovarian'),
  );
});

describe('metaserver score NORM', () => {
  it('reports mention and id (BC5CDR) and span and identifier (evaluate.py) for every type', async () => {
    const { code, out } = await score('NORM', '--gold', path('gold.pubtator'), path('run.pubtator'));
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ task: 'NORM', options: { gold: path('gold.pubtator') } });
    const m = report.runs[0].metrics;
    expect(m.mention).toMatchObject({ tp: 2, fp: 1, fn: 1 });
    // Ids per document: MESH:D001241, MESH:D005334, MESH:D001943 of the gold's four found.
    expect(m.id).toMatchObject({ tp: 3, fp: 0, fn: 1 });
    expect(m.span.strict).toEqual({ p: 2 / 3, r: 2 / 3, f: 2 / 3 });
    expect(m.span.approx).toEqual({ p: 1, r: 1, f: 1 });
    // evaluate.py compares identifiers as written: "MESH:D001241" is not "D001241", "D001943|D010051" is one identifier.
    expect(m.identifier.strict).toEqual({ p: 1 / 3, r: 1 / 3, f: 1 / 3 });
  });

  it('scores one type with --type', async () => {
    const { code, out } = await score('NORM', '--gold', path('gold.pubtator'), '--type', 'Chemical', path('run.pubtator'));
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.options.type).toBe('Chemical');
    expect(report.runs[0].metrics.mention).toMatchObject({ tp: 1, fp: 0, fn: 0, f: 1 });
  });

  it('refuses a composite id written wrong with its file and line (exit 1)', async () => {
    const { code, err } = await score('NORM', '--gold', path('bad.pubtator'), path('run.pubtator'));
    expect(code).toBe(1);
    expect(err).toContain(`${path('bad.pubtator')}, line 4:`);
    expect(err).toContain('D001943|ovarian');
  });

  it('refuses --type for a scorer it does not apply to, and NORM without --gold (exit 2)', async () => {
    expect((await score('MENTION', '--gold', path('gold.pubtator'), '--type', 'Disease', path('run.pubtator'))).code).toBe(2);
    const missing = await score('NORM', path('run.pubtator'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--gold is required');
  });

  it('says when the documents differ (evaluate.py would refuse the pair)', async () => {
    await writeFile(path('other.pubtator'), tsv('8|t|fever', '8 | 0 | 5 | fever | Disease | D005334'));
    const { code, err, out } = await score('NORM', '--gold', path('gold.pubtator'), path('other.pubtator'));
    expect(code).toBe(0);
    expect(err).toMatch(/misses gold documents 7 and has documents not in the gold 8/);
    // BC5CDR: document 8 has no gold, so its mention is dropped, not a false positive.
    expect(JSON.parse(out).runs[0].metrics.mention).toMatchObject({ tp: 0, fp: 0, fn: 3 });
  });
});
