// `metaserver score MENTION` on real files with a mention given twice: the bioc Python
// library's `everything` sample annotates document 1's "fg" [5, 7) twice (passage
// annotation 2 and document-level annotation 5, same span, no type). Counted once, with a
// warning naming it. And BC5CDR's kit sample, which has no repeat: MENTION's strict
// Disease figures are the kit's eval_mention.sh figures (README of the fixtures).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { score } from '../../support/score-cli.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const EVERYTHING = join(fixtures, 'bioc', 'bioc-python-everything.xml');
const dir = mkdtempSync(join(tmpdir(), 'mention-duplicates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The XML without the annotation of that id (a whole <annotation> element). */
const without = (xml: string, id: string) => xml.replace(new RegExp(`\\s*<annotation id="${id}">[\\s\\S]*?</annotation>`), '');

const metricsOf = (answer: { code: number; out: string; err: string }) => {
  expect(answer.code, answer.err).toBe(0);
  return JSON.parse(answer.out).runs[0].metrics;
};

describe('metaserver score MENTION with a gold mention given twice (real BioC file)', () => {
  it('counts the gold as a set: a run that finds it once and misses one other gets tp 3, fn 1, R 3/4 (was R 4/5)', async () => {
    // The run: document 1's "fg" once (annotation 5 left out), document 2's "测试" (annotation 4) missed.
    const run = join(dir, 'run.xml');
    writeFileSync(run, without(without(readFileSync(EVERYTHING, 'utf8'), '5'), '4'));
    const answer = await score('MENTION', '--gold', EVERYTHING, run);
    const metrics = metricsOf(answer);
    expect(metrics.strict).toMatchObject({ tp: 3, fp: 0, fn: 1, p: 1, r: 0.75 });
    expect(answer.err).toContain(`warning: ${EVERYTHING}: 1 mention(s) given more than once (same document, span and type)`);
    expect(answer.err).toContain('document "1" [5, 7) untyped (2 times)');
    // The run has no repeat: no warning names it.
    expect(answer.err).not.toContain(`${run}:`);
  });

  it('scores the file against itself (its BioC JSON twin) as tp 4, not 5, and warns for gold and run alike', async () => {
    const twin = join(fixtures, 'bioc', 'bioc-python-everything.json');
    const answer = await score('MENTION', '--gold', EVERYTHING, twin);
    expect(metricsOf(answer).strict).toMatchObject({ tp: 4, fp: 0, fn: 0, f: 1 });
    expect(answer.err).toContain(`warning: ${twin}: 1 mention(s) given more than once`);
    expect(answer.err).toContain('a repeat in a run is neither a second true positive nor a false positive');
  });
});

describe("BC5CDR's kit sample (no repeats): MENTION's strict Disease figures are eval_mention.sh's", () => {
  it('TP 303, FP 105, FN 121', async () => {
    const kit = join(fixtures, 'bc5cdr-eval');
    const answer = await score('MENTION', '--gold', join(kit, 'CDR_sample.gold.PubTator'), join(kit, 'CDR_sample.test.DNER.PubTator'));
    expect(metricsOf(answer).perType.Disease.strict).toMatchObject({ tp: 303, fp: 105, fn: 121 });
    expect(answer.err).not.toContain('more than once');
  });
});
