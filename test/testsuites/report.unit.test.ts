import { describe, expect, it } from 'vitest';
import { loadBuiltInCatalogue } from '../../src/testsuites/catalogue-io.ts';
import { generateSuite } from '../../src/testsuites/generate.ts';
import { buildReport, formatReportTsv } from '../../src/testsuites/report.ts';
import type { MentionItem } from '../../src/families/mention/types.ts';
import type { GeneratedItem } from '../../src/testsuites/types.ts';
import { inClass, isFault } from './run-helpers.ts';

/** The deliberately flawed tagger: it misses its two faults (isFault) and otherwise answers the gold. */
function flawedTagger(item: GeneratedItem): MentionItem[] {
  const found = item.mentions.filter((_, i) => !isFault(item, i));
  const qol = item.text.indexOf('QoL');
  if (item.type === 'fp' && qol >= 0) found.push({ start: qol, end: qol + 3, text: 'QoL', type: 'gene' });
  return found;
}

describe('test-suite report', () => {
  it("ranks the flawed tagger's fault classes worst", async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    const sampled = generateSuite(entities, sentences, { sample: 6000, seed: 'report' }).items.filter((i) => i.type === 'tp');
    const items = [
      ...sampled,
      ...generateSuite(
        [],
        sentences.filter((s) => s.type === 'fp'),
      ).items,
    ];
    const answers = new Map(items.map((i) => [i.id, flawedTagger(i)]));
    const report = buildReport(items, answers, {
      singles: ['kind', 'case', 'function_word', 'slot.position', 'numeral', 'greek', 'punctuation', 'type'],
      by: [
        ['case', 'slot.position'],
        ['kind', 'case', 'slot.position'],
      ],
    });
    const withGold = report.classes.filter((c) => c.gold > 0);
    const zero = withGold.filter((c) => c.strict.f === 0);
    // The named equivalence classes are found, with recall 0, ahead of every other class.
    for (const key of ['function_word=y', 'kind=symbol & case=lower-initial & slot.position=I']) {
      const c = report.classes.find((k) => k.key === key)!;
      expect(c.strict.r, key).toBe(0);
      expect(zero).toContain(c);
    }
    expect(report.classes.slice(0, zero.length)).toEqual(zero);
    // Exactly the classes made only of fault mentions score 0; every other class scores above 0.
    for (const c of withGold) {
      const members = items.flatMap((it) => it.mentions.map((_, i) => [it, i] as const)).filter(([it, i]) => inClass(it, i, c));
      expect(members.length, c.key).toBe(c.gold);
      expect(c.strict.f === 0, c.key).toBe(members.every(([it, i]) => isFault(it, i)));
    }
    expect(report.classes.find((c) => c.key === 'function_word=n')!.strict.p).toBe(1);
    // The bait sentence with QoL yields a listed false positive; fp classes come last.
    expect(report.falsePositives.map((f) => f.mentions.map((m) => m.text))).toEqual([['QoL']]);
    expect(report.fpSentences.items).toBeGreaterThan(0);
    const fpClass = report.classes.find((c) => c.key === 'type=fp');
    if (fpClass) expect(report.classes.indexOf(fpClass)).toBeGreaterThanOrEqual(withGold.length);
    expect(report.missingAnswers).toEqual([]);
    expect(report.overall.strict.p).toBe(report.overall.strict.tp / report.overall.responses);
  });

  it('attributes responses by overlap, scores left/right boundaries and formats TSV', () => {
    const { items } = generateSuite(
      [{ id: 'e', data: 'alcohol dehydrogenase 6', features: { kind: 'name', case: ['all-lower', 'lower-initial'] } }],
      [{ id: 's', type: 'tp', text: 'We purified <> from yeast.', features: { type: 'tp', list: 'none' } }],
    );
    // The paper's boundary error: <gp>alcohol dehydrogenase</gp> 6.
    const answers = new Map([[items[0].id, [{ start: 12, end: 33, text: 'alcohol dehydrogenase', type: 'protein' }]]]);
    const report = buildReport(items, answers, { singles: ['case'], by: [['case', 'slot.position']] });
    const c = report.classes.find((k) => k.key === 'case=lower-initial & slot.position=M')!;
    expect([c.strict.f, c.left.f, c.right.f]).toEqual([0, 1, 0]);
    const tsv = formatReportTsv(report);
    expect(tsv.split('\n')[0].split('\t').slice(0, 7)).toEqual(['class', 'gold', 'responses', 'items', 'strict_p', 'strict_r', 'strict_f']);
    expect(tsv).toContain('\n(all)\t1\t1\t1\t0\t0\t0\t1\t1\t1\t0\t0\t0\t0\t1\t1\n');
    expect(() => buildReport(items, answers, { by: [['colour']] })).toThrow(/unknown feature "colour"/);
    expect(buildReport(items, new Map()).missingAnswers).toEqual([items[0].id]);
  });
});
