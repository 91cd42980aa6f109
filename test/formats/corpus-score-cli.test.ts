// `metaserver score MENTION` with corpus files: PubTator and BioC gold read like their
// uploads (every located annotation a mention of its type), runs in the same form.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { score } from '../support/score-cli.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'corpus-score-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('metaserver score MENTION with corpus files', () => {
  it('PubTator gold and run: F checked by hand', async () => {
    const gold = join(fixtures, 'pubtator', 'cdr-sample-4.txt');
    // Leave out document 26094's 11 mentions (keeping the document) and add one spurious mention.
    const run = readFileSync(gold, 'utf8')
      .split('\n\n')
      .map((d) =>
        d.startsWith('26094|')
          ? d.split('\n').slice(0, 2).join('\n')
          : d.startsWith('354896|')
            ? `${d.trimEnd()}\n354896\t10\t17\tinduced\tChemical\t-`
            : d,
      )
      .join('\n\n');
    writeFileSync(join(dir, 'run.pubtator'), run);
    const answer = await score('MENTION', '--gold', gold, join(dir, 'run.pubtator'));
    const metrics = JSON.parse(answer.out).runs[0].metrics;
    // TP 54, FP 1, FN 11: F = 108 / 120.
    expect(metrics.strict).toMatchObject({ tp: 54, fp: 1, fn: 11 });
    expect(metrics.strict.f).toBeCloseTo(0.9, 12);
  });

  it("reads BC5CDR's BioC as its PubTator twin: a composite's individual mentions (CompositeRole) are not mentions", async () => {
    const pubtator = join(fixtures, 'pubtator', 'cdr-test-3.txt');
    const bioc = join(fixtures, 'bioc', 'cdr-test-3.xml');
    const metrics = JSON.parse((await score('MENTION', '--gold', pubtator, bioc)).out).runs[0].metrics;
    expect(metrics.strict.fp).toBe(0);
    expect(metrics.strict.fn).toBe(0);
    expect(metrics.strict.tp).toBeGreaterThan(0);
  });

  it('BioC gold against itself scores 100%; a BioC file whose annotation does not fit is refused naming it', async () => {
    const gold = join(fixtures, 'bioc', 'pubtator-api-34546791.json');
    const same = JSON.parse((await score('MENTION', '--gold', gold, gold)).out).runs[0].metrics;
    expect(same.strict).toMatchObject({ tp: 41, fp: 0, fn: 0, f: 1 });
    writeFileSync(join(dir, 'bad.json'), readFileSync(gold, 'utf8').replace('"text": "IKKbeta"', '"text": "IKKgamma"'));
    const bad = await score('MENTION', '--gold', gold, join(dir, 'bad.json'));
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/bad\.json.*annotation 4 says its text is "IKKgamma"/);
  });
});
