// BC5CDR evaluation kit's own example (test/fixtures/bc5cdr-eval, public domain): its
// readme prints TP 90, FP 533, FN 33 and these P, R, F for the CID sample run, in PubTator
// and in BioC; `metaserver score CID` must print the same, and `metaserver score CREL`
// (BioRED's settings) the same figures for the pair and pair+type settings of a CID run.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from '../../support/score-cli.ts';

const DATA = join(import.meta.dirname, '../../fixtures/bc5cdr-eval');
const PRINTED = { tp: 90, fp: 533, fn: 33, p: 0.14446227929373998, r: 0.7317073170731707, f: 0.24128686327077747 };

describe("BC5CDR's eval_relation.sh example", () => {
  for (const [format, gold, run] of [
    ['PubTator', 'CDR_sample.gold.PubTator', 'CDR_sample.test.CID.PubTator'],
    ['BioC', 'CDR_sample.gold.BioC.xml', 'CDR_sample.test.CID.BioC.xml'],
  ] as const) {
    it(`scores the ${format} sample as the kit's readme prints`, async () => {
      const { code, out, err } = await score('CID', '--gold', join(DATA, gold), join(DATA, run));
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(out).runs[0].metrics).toEqual(PRINTED);
    });
  }

  it('gives the same figures as BioRED pair and pair+type settings (every CID pair is one chemical, one disease)', async () => {
    const { code, out } = await score('CREL', '--gold', join(DATA, 'CDR_sample.gold.PubTator'), join(DATA, 'CDR_sample.test.CID.PubTator'));
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    expect(metrics.pair).toEqual(PRINTED);
    expect(metrics.pairType).toEqual(PRINTED);
  });

  it('refuses a run line the tool stops on, naming the file and line', async () => {
    const { code, err } = await score(
      'CID',
      '--gold',
      join(DATA, 'CDR_sample.gold.PubTator'),
      join(import.meta.dirname, 'no-such-file.txt'),
    );
    expect(code).not.toBe(0);
    expect(err).toMatch(/no-such-file\.txt/);
  });
});
