// The test-suite report: P/R/F (strict, left, right, via the project's mention scorer)
// per feature value and per asked combination of features — the equivalence classes
// of Cohen et al. 2004, §3 — plus the false positives on fp sentences, worst class first.
//
// Classes are formed per mention, not per item: a gold mention belongs to the classes of
// its entity, its sentence and its own slot (so `slot.position=I` holds only the mention
// that opened the sentence). A response mention joins the classes of the gold mention it
// overlaps; one that overlaps none joins the entity and sentence classes of its item.

import { scoreMentions, type Mention, type MentionCounts } from '../scoring/index.ts';
import type { MentionItem } from '../families/mention/types.ts';
import { FEATURE_SPECS, SPEC_BY_KEY, valuesOf } from './feature-specs.ts';
import type { GeneratedItem, SlotFeatures } from './types.ts';

export interface ClassScore {
  /** e.g. `case=lower-initial & slot.position=I`. */
  key: string;
  features: Record<string, string>;
  gold: number;
  responses: number;
  items: number;
  strict: MentionCounts;
  left: MentionCounts;
  right: MentionCounts;
}

export interface FalsePositive {
  id: string;
  sentenceId: string;
  text: string;
  mentions: MentionItem[];
}

export interface SuiteReport {
  overall: Omit<ClassScore, 'key' | 'features'>;
  /** Worst first: classes with gold by strict F then recall; classes without gold (fp sentences) last, most false positives first. */
  classes: ClassScore[];
  falsePositives: FalsePositive[];
  fpSentences: { items: number; withFalsePositives: number; mentions: number };
  /** Items the answers did not mention (scored as answering nothing). */
  missingAnswers: string[];
}

export interface ReportOptions {
  /** Feature combinations to report besides every single feature, e.g. [['case', 'slot.position']]. */
  by?: readonly (readonly string[])[];
  /** Restrict the single-feature classes to these keys (default: every feature). */
  singles?: readonly string[];
}

type Scope = (key: string) => string[];

function slotValues(slot: SlotFeatures, key: string): string[] {
  if (key === 'slot.position') return slot.position;
  return key === 'slot.left' ? [slot.left] : key === 'slot.right' ? [slot.right] : [];
}

function scopeOf(item: GeneratedItem, slot: SlotFeatures | undefined): Scope {
  return (key) => {
    const spec = SPEC_BY_KEY.get(key)!;
    if (spec.scope === 'slot') return slot ? slotValues(slot, key) : [];
    return valuesOf(spec.scope === 'entity' ? item.entityFeatures?.[key] : item.sentenceFeatures[key]);
  };
}

/** Every class key a mention belongs to under one combination of features. */
function classesOf(scope: Scope, combo: readonly string[]): { key: string; features: Record<string, string> }[] {
  let partial: Record<string, string>[] = [{}];
  for (const feature of combo) {
    const values = scope(feature);
    partial = partial.flatMap((p) => values.map((v) => ({ ...p, [feature]: v })));
  }
  return partial.map((features) => ({ key: combo.map((f) => `${f}=${features[f]}`).join(' & '), features }));
}

const overlaps = (a: MentionItem, b: MentionItem) => a.start < b.end && a.end > b.start;

function scoreOf(gold: Mention[], responses: Mention[]) {
  const s = scoreMentions(gold, responses, { singleClass: true });
  return { strict: s.strict, left: s.left, right: s.right };
}

export function buildReport(
  items: readonly GeneratedItem[],
  answers: ReadonlyMap<string, readonly MentionItem[]>,
  options: ReportOptions = {},
): SuiteReport {
  for (const key of [...(options.by ?? []).flat(), ...(options.singles ?? [])]) {
    if (!SPEC_BY_KEY.has(key)) throw new Error(`unknown feature "${key}"; see: metaserver testsuite list-features`);
  }
  const combos: (readonly string[])[] = [
    ...(options.singles ?? FEATURE_SPECS.map((s) => s.key)).map((k) => [k]),
    ...(options.by ?? []).filter((c) => c.length > 1),
  ];
  const buckets = new Map<string, { features: Record<string, string>; gold: Mention[]; responses: Mention[]; items: Set<string> }>();
  const add = (scope: Scope, mention: Mention, side: 'gold' | 'responses') => {
    for (const combo of combos) {
      for (const { key, features } of classesOf(scope, combo)) {
        let b = buckets.get(key);
        if (!b) buckets.set(key, (b = { features, gold: [], responses: [], items: new Set() }));
        b[side].push(mention);
        b.items.add(mention.doc);
      }
    }
  };
  const allGold: Mention[] = [];
  const allResponses: Mention[] = [];
  const falsePositives: FalsePositive[] = [];
  const missingAnswers: string[] = [];
  for (const item of items) {
    const answer = answers.get(item.id);
    if (!answer) missingAnswers.push(item.id);
    const asMention = (m: MentionItem): Mention => ({ doc: item.id, start: m.start, end: m.end, type: 'gene' });
    item.mentions.forEach((g, i) => {
      const m = asMention(g);
      allGold.push(m);
      add(scopeOf(item, item.slots[i]), m, 'gold');
    });
    for (const r of answer ?? []) {
      const m = asMention(r);
      allResponses.push(m);
      const hit = item.mentions.findIndex((g) => overlaps(g, r));
      add(scopeOf(item, hit >= 0 ? item.slots[hit] : undefined), m, 'responses');
    }
    if (item.type === 'fp' && answer?.length)
      falsePositives.push({ id: item.id, sentenceId: item.sentenceId, text: item.text, mentions: [...answer] });
  }
  const classes: ClassScore[] = [...buckets].map(([key, b]) => ({
    key,
    features: b.features,
    gold: b.gold.length,
    responses: b.responses.length,
    items: b.items.size,
    ...scoreOf(b.gold, b.responses),
  }));
  classes.sort((a, b) => {
    if (a.gold > 0 !== b.gold > 0) return a.gold > 0 ? -1 : 1;
    if (a.gold === 0) return b.strict.fp - a.strict.fp || a.key.localeCompare(b.key);
    return a.strict.f - b.strict.f || a.strict.r - b.strict.r || a.key.localeCompare(b.key);
  });
  const fpItems = items.filter((i) => i.type === 'fp');
  return {
    overall: { gold: allGold.length, responses: allResponses.length, items: items.length, ...scoreOf(allGold, allResponses) },
    classes,
    falsePositives,
    fpSentences: {
      items: fpItems.length,
      withFalsePositives: falsePositives.length,
      mentions: falsePositives.reduce((n, f) => n + f.mentions.length, 0),
    },
    missingAnswers,
  };
}

const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));
const CRITERIA = ['strict', 'left', 'right'] as const;

/** Two tab-separated tables separated by a blank line: the classes, then the false positives. */
export function formatReportTsv(report: SuiteReport): string {
  const head = [
    'class',
    'gold',
    'responses',
    'items',
    ...CRITERIA.flatMap((c) => [`${c}_p`, `${c}_r`, `${c}_f`]),
    'strict_tp',
    'strict_fp',
    'strict_fn',
  ];
  const row = (key: string, c: Omit<ClassScore, 'key' | 'features'>) =>
    [key, c.gold, c.responses, c.items, ...CRITERIA.flatMap((k) => [c[k].p, c[k].r, c[k].f]), c.strict.tp, c.strict.fp, c.strict.fn]
      .map((v) => (typeof v === 'number' ? num(v) : v))
      .join('\t');
  const lines = [head.join('\t'), row('(all)', report.overall), ...report.classes.map((c) => row(c.key, c))];
  const clean = (s: string) => s.replace(/[\t\r\n]/g, ' ');
  const fps = report.falsePositives.flatMap((f) => f.mentions.map((m) => [f.id, m.start, m.end, clean(m.text), clean(f.text)].join('\t')));
  return `${lines.join('\n')}\n\n${['fp_item', 'start', 'end', 'mention', 'sentence'].join('\t')}\n${fps.map((l) => `${l}\n`).join('')}`;
}

export function formatReportJson(report: SuiteReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}
