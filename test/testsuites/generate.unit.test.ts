import { describe, expect, it } from 'vitest';
import { makeEntity, makeSentence } from '../../src/testsuites/catalogue.ts';
import { loadBuiltInCatalogue } from '../../src/testsuites/catalogue-io.ts';
import { generateSuite, selectEntities, selectSentences } from '../../src/testsuites/generate.ts';
import { parseGpMarkup } from '../../src/testsuites/markup.ts';
import { sliceCodePoints } from '../../src/shared/code-points.ts';
import { sampleIndices, seededRandom } from '../../src/shared/prng.ts';
import type { GeneratedItem } from '../../src/testsuites/types.ts';

function expectConsistent(item: GeneratedItem): void {
  const parsed = parseGpMarkup(item.sgml);
  expect(parsed.text).toBe(item.text);
  expect(parsed.mentions).toEqual(item.mentions);
  for (const m of item.mentions) expect(sliceCodePoints(item.text, m.start, m.end)).toBe(m.text);
  expect(item.slots.length).toBe(item.mentions.length);
}

describe('generation', () => {
  const entities = [makeEntity({ id: 'acox2', data: 'ACOX2' }), makeEntity({ id: 'p100', data: 'p100' })];
  const sentences = [
    makeSentence({ id: 's1', text: '<> polymorphisms may be correlated with an increased risk of larynx cancer.' }),
    makeSentence({ id: 's2', text: '<> interacts with <> and <> in the two-hybrid system.', list: 'coordination' }),
    makeSentence({ id: 'f1', text: 'The aim of the present study is to evaluate the impact on QoL.' }),
  ];

  it("produces the paper's SGML gold and standoff gold", () => {
    const { items, productSize } = generateSuite(entities, sentences);
    expect(productSize).toBe(2 * 2 + 1);
    expect(items.map((i) => i.id)).toEqual(['s1--acox2', 's1--p100', 's2--acox2', 's2--p100', 'f1']);
    expect(items[0]).toMatchObject({
      text: 'ACOX2 polymorphisms may be correlated with an increased risk of larynx cancer.',
      sgml: '<gp>ACOX2</gp> polymorphisms may be correlated with an increased risk of larynx cancer.',
      mentions: [{ start: 0, end: 5, text: 'ACOX2', type: 'gene' }],
      slots: [{ position: ['I'], left: 'none', right: 'none' }],
      entityId: 'acox2',
      sentenceId: 's1',
      type: 'tp',
    });
    // Sentence-initial insertion keeps the catalogue's case.
    expect(items[3].text).toBe('p100 interacts with p100 and p100 in the two-hybrid system.');
    expect(items[3].mentions.map((m) => [m.start, m.end])).toEqual([
      [0, 4],
      [20, 24],
      [29, 33],
    ]);
    expect(items[4]).toMatchObject({ type: 'fp', mentions: [], sgml: items[4].text });
    items.forEach(expectConsistent);
  });

  it('keeps code-point offsets right with non-BMP text', () => {
    const e = [makeEntity({ id: 'x', data: '\u{1D6FC}-catenin \u{1F9EC}' })];
    const s = [makeSentence({ id: 'n', text: '\u{1F52C} Levels of <> rose; \u{1D6FD} stayed (<>).' })];
    const [item] = generateSuite(e, s).items;
    expectConsistent(item);
    expect(item.mentions[0].start).toBe(12);
    expect(item.mentions[1].start).toBe(12 + 11 + 17);
  });

  it('samples deterministically from the product', () => {
    const a = generateSuite(entities, sentences, { sample: 3, seed: 'x' }).items.map((i) => i.id);
    const b = generateSuite(entities, sentences, { sample: 3, seed: 'x' }).items.map((i) => i.id);
    expect(a).toHaveLength(3);
    expect(new Set(a).size).toBe(3);
    expect(a).toEqual(b);
    expect(generateSuite(entities, sentences, { sample: 99, seed: 1 }).items).toHaveLength(5);
    expect(() => generateSuite(entities, sentences, { sample: 0 })).toThrow(/positive integer/);
    const idx = sampleIndices(50, 1_000_000, seededRandom(7));
    expect(idx).toHaveLength(50);
    expect(new Set(idx).size).toBe(50);
    expect(idx.every((i, k) => i >= 0 && i < 1_000_000 && (k === 0 || idx[k - 1] < i))).toBe(true);
    expect(seededRandom('s')()).toBe(seededRandom('s')());
  });

  it('builds the full product of the built-in catalogue with consistent gold', async () => {
    const { entities: all, sentences: frames } = await loadBuiltInCatalogue();
    const picked = selectEntities(all, 'case=lower-initial AND numeral.position=final');
    expect(picked.length).toBeGreaterThan(5);
    const tp = selectSentences(frames, 'type=tp');
    const fp = selectSentences(frames, 'type=fp');
    const suite = generateSuite(picked, frames);
    expect(suite.productSize).toBe(picked.length * tp.length + fp.length);
    expect(suite.items).toHaveLength(suite.productSize);
    suite.items.forEach(expectConsistent);
    const sample = generateSuite(all, frames, { sample: 200, seed: 42 });
    expect(sample.items).toHaveLength(200);
    expect(sample.productSize).toBe(all.length * tp.length + fp.length);
  });
});
