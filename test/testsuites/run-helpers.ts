// What the run and report tests share: the two faults of the deliberately flawed tagger and
// class membership computed independently of the report code.
import { SPEC_BY_KEY, valuesOf } from '../../src/testsuites/feature-specs.ts';
import type { ClassScore } from '../../src/testsuites/report.ts';
import type { GeneratedItem } from '../../src/testsuites/types.ts';

/** The single-feature classes the report tests look at. */
export const SINGLES = ['kind', 'case', 'function_word', 'slot.position', 'numeral', 'greek', 'punctuation', 'type'];

/** (a) a lower-case-initial symbol opening the sentence, (b) a name containing a function word. */
export function isFault(item: GeneratedItem, slot: number): boolean {
  const f = item.entityFeatures;
  if (!f) return false;
  const lowerInitialSymbolAtStart =
    f.kind === 'symbol' && valuesOf(f.case).includes('lower-initial') && item.slots[slot].position.includes('I');
  return lowerInitialSymbolAtStart || f.function_word === true;
}

export function inClass(item: GeneratedItem, slot: number, c: Pick<ClassScore, 'features'>): boolean {
  return Object.entries(c.features).every(([key, value]) => {
    const scope = SPEC_BY_KEY.get(key)!.scope;
    const s = item.slots[slot];
    const values =
      scope === 'slot'
        ? key === 'slot.position'
          ? s.position
          : [key === 'slot.left' ? s.left : s.right]
        : valuesOf(scope === 'entity' ? item.entityFeatures?.[key] : item.sentenceFeatures[key]);
    return values.includes(value);
  });
}

/** A bait sentence answer: the flawed tagger also tags "QoL" wherever it appears. */
export function baitMentions(text: string): { offset: number; mention: string; type: string }[] {
  const at = Array.from(text).join('').indexOf('QoL');
  return at < 0 ? [] : [{ offset: Array.from(text.slice(0, at)).length, mention: 'QoL', type: 'gene' }];
}
