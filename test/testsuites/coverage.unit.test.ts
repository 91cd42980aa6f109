import { describe, expect, it } from 'vitest';
import { loadBuiltInCatalogue } from '../../src/testsuites/catalogue-io.ts';
import { FEATURE_SPECS, valuesOf } from '../../src/testsuites/feature-specs.ts';

// Values no real catalogue entry can show: every built-in entity cites a known database,
// and a slot glued to a period, comma, semicolon, plus sign or apostrophe on its left
// (or to an unnamed mark) does not occur in prose. Queries may still name them.
const UNREACHABLE: Record<string, string[]> = {
  'source.db': ['other', 'none'],
  'punctuation.which': ['colon', 'semicolon'],
  'slot.left': ['apostrophe', 'period', 'comma', 'semicolon', 'plus', 'other'],
  'slot.right': ['other'],
};

describe('built-in catalogue coverage', () => {
  it('has at least 150 entities and 60 sentences, tp and fp', async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    expect(entities.length).toBeGreaterThanOrEqual(150);
    expect(sentences.length).toBeGreaterThanOrEqual(60);
    expect(sentences.filter((s) => s.type === 'fp').length).toBeGreaterThanOrEqual(15);
  });

  it('shows every value of every closed feature, and both values of every boolean', async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    const missing: string[] = [];
    for (const spec of FEATURE_SPECS) {
      const pool = spec.scope === 'entity' ? entities.map((e) => e.features) : sentences.map((s) => s.features);
      const seen = new Set(pool.flatMap((f) => valuesOf(f[spec.key])));
      const wanted = spec.type === 'boolean' ? ['y', 'n'] : (spec.values ?? []).filter((v) => !UNREACHABLE[spec.key]?.includes(v));
      for (const v of wanted) if (!seen.has(v)) missing.push(`${spec.key}=${v}`);
    }
    expect(missing).toEqual([]);
  });

  it('covers the conditions the paper names', async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    const count = (pred: (f: Record<string, unknown>) => boolean) => entities.filter((e) => pred(e.features)).length;
    const has = (key: string, v: string) => (f: Record<string, unknown>) => valuesOf(f[key] as never).includes(v);
    expect(count((f) => has('case', 'lower-initial')(f) && f.kind === 'symbol')).toBeGreaterThan(10);
    expect(count(has('function_word.count', '2'))).toBeGreaterThan(0);
    for (const pos of ['initial', 'medial', 'final']) expect(count(has('numeral.position', pos)), pos).toBeGreaterThan(0);
    expect(entities.map((e) => e.data)).toEqual(
      expect.arrayContaining(['scott of the antarctic', 'death-associated protein 6', '[beta]1 integrin', '12-LOX', 'p100']),
    );
    const lists = new Set(sentences.map((s) => s.features.list));
    expect([...lists].sort()).toEqual(['asyndetic', 'complex', 'coordination', 'none']);
    for (const n of [1, 2, 3]) expect(sentences.some((s) => s.features['slot.count'] === n)).toBe(true);
    const fpText = sentences
      .filter((s) => s.type === 'fp')
      .map((s) => s.text)
      .join(' ');
    for (const bait of ['QoL', 'protein', 'gene', 'expression', 'disease', 'vitamin'])
      expect(fpText.toLowerCase()).toContain(bait.toLowerCase());
  });
});
