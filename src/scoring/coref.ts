// BioNLP-ST 2011 protein coreference scoring, in the task's two modes, as the task's
// official scorer (CRScorer) computes them with partial mention matching.
//
// Per document and mode: (1) mention detection aligns every response expression with the
// first gold expression it matches (covers the gold minimal boundary, lies inside the
// gold span; exact without a minimal boundary); (2) a response link is correct when its
// anaphor and its antecedents (surface mode) or its protein (protein mode) are aligned
// with those of a gold link. Gold links are not used up: two response links aligned with
// one gold link are both correct, and that gold link is found once for recall.
// P = correct / response, R = gold found / gold. Which links and expressions each mode
// scores is decided in coref-links.ts. Per anaphor type, the type is induced from the
// anaphor's first word and word count (the task paper's sub-type table); precision counts
// responses of that type, recall gold links of that type.

import { f1, safeRatio } from './metrics.ts';
import type { CorefAnnotation, Expression, Protein, Span } from './coref-input.ts';
import {
  DROP_REASONS,
  prepareSide,
  proteinLinksOf,
  type DropReason,
  type DroppedLink,
  type PreparedSide,
  type ProteinLink,
} from './coref-links.ts';

export const ANAPHOR_TYPES = ['RELAT', 'PRON', 'DNP', 'APPOS', 'other'] as const;
export type AnaphorType = (typeof ANAPHOR_TYPES)[number];

// Sub type = first word + 1 (one-word expression) or 2 (longer). Unlisted sub types are
// "other"; no sub type maps to APPOS, so APPOS stays empty (as in the paper's table).
const SUBTYPES: Record<string, AnaphorType> = {
  'both-1': 'PRON',
  'both-2': 'PRON',
  'either-1': 'PRON',
  'it-1': 'PRON',
  'its-1': 'PRON',
  'one-2': 'PRON',
  'their-1': 'PRON',
  'them-1': 'PRON',
  'these-1': 'PRON',
  'they-1': 'PRON',
  'this-1': 'PRON',
  'those-1': 'PRON',
  'such-2': 'DNP',
  'the-2': 'DNP',
  'these-2': 'DNP',
  'this-2': 'DNP',
  'that-1': 'RELAT',
  'which-1': 'RELAT',
  'whose-1': 'RELAT',
  'whose-2': 'RELAT',
};

export function anaphorType(text: string): AnaphorType {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return 'other';
  return SUBTYPES[`${words[0].toLowerCase()}-${words.length === 1 ? 1 : 2}`] ?? 'other';
}

export function expressionMatches(response: Span, gold: Expression): boolean {
  if (!gold.min) return response.start === gold.start && response.end === gold.end;
  return gold.start <= response.start && response.start <= gold.min.start && gold.min.end <= response.end && response.end <= gold.end;
}

/** One document: its given proteins, the gold annotation and the response. */
export interface CorefDocumentInput {
  doc: string;
  proteins: Map<string, Protein>;
  gold: CorefAnnotation;
  response: CorefAnnotation;
  goldFile?: string;
  responseFile?: string;
}

/** gold / response: items scored; tp: correct responses; fp = response − tp; fn: gold items found by none. */
export interface CorefCounts {
  gold: number;
  response: number;
  tp: number;
  fp: number;
  fn: number;
  p: number;
  r: number;
  f: number;
}

export type DropCounts = Record<'givenProtein' | 'antecedentAfterAnaphor' | 'repeatedAnaphor', number>;

export interface CorefScore {
  /** Mention detection (anaphora and antecedent expressions), reported before the links as the official scorer does. */
  mentions: { surface: CorefCounts; protein: CorefCounts };
  surface: CorefCounts;
  protein: CorefCounts;
  perType: Record<AnaphorType, { surface: CorefCounts; protein: CorefCounts }>;
  /** How many links were not scored, by side and reason. */
  dropped: { gold: DropCounts; response: DropCounts };
  /** Each link not scored, with the reason (callers report it beside the figures, not as one). */
  droppedLinks: DroppedLink[];
}

interface Tally {
  correct: number;
  responses: number;
  found: number;
  gold: number;
}

const emptyTally = (): Tally => ({ correct: 0, responses: 0, found: 0, gold: 0 });

/** Response expression id → id of the first gold expression it matches. */
function alignMentions(response: Expression[], gold: Expression[], tally: Tally): Map<string, string> {
  const aligned = new Map<string, string>();
  for (const r of response) {
    const g = gold.find((candidate) => expressionMatches(r, candidate));
    if (g) aligned.set(r.id, g.id);
  }
  tally.gold += gold.length;
  tally.responses += response.length;
  tally.correct += aligned.size;
  tally.found += new Set(aligned.values()).size;
  return aligned;
}

/** A link as matching sees it: its anaphor (for the type) and what it must agree on. */
interface Keyed {
  anaphor: Expression;
  /** Undefined: a response link with an end that is aligned with no gold expression. */
  key: string | undefined;
}

/**
 * A response link is correct when some gold link has its key; the first such gold link is
 * the one found, as in the official scorer (so of two identical gold links only the first
 * can be found). Gold links are not used up by a match.
 */
function tallyLinks(gold: Keyed[], response: Keyed[], overall: Tally, byType: Record<AnaphorType, Tally>): void {
  const firstGoldWith = new Map<string, number>();
  gold.forEach((g, i) => {
    if (!firstGoldWith.has(g.key!)) firstGoldWith.set(g.key!, i);
    overall.gold++;
    byType[anaphorType(g.anaphor.text)].gold++;
  });
  const found = new Set<number>();
  for (const r of response) {
    const type = anaphorType(r.anaphor.text);
    overall.responses++;
    byType[type].responses++;
    const index = r.key === undefined ? undefined : firstGoldWith.get(r.key);
    if (index === undefined) continue;
    overall.correct++;
    byType[type].correct++;
    if (found.has(index)) continue;
    found.add(index);
    overall.found++;
    byType[anaphorType(gold[index].anaphor.text)].found++;
  }
}

const keyOf = (parts: (string | undefined)[]): string | undefined => (parts.includes(undefined) ? undefined : parts.join('\u0000'));

/** Antecedents compare as a set: role numbers only tell repeated arguments apart. */
function surfaceKey(anaphor: string | undefined, antecedents: (string | undefined)[]): string | undefined {
  return keyOf([anaphor, ...[...antecedents].sort()]);
}

function countsOf(t: Tally): CorefCounts {
  const p = safeRatio(t.correct, t.responses);
  const r = safeRatio(t.found, t.gold);
  return { gold: t.gold, response: t.responses, tp: t.correct, fp: t.responses - t.correct, fn: t.gold - t.found, p, r, f: f1(p, r) };
}

const DROP_KEYS: Record<DropReason, keyof DropCounts> = {
  'given-protein': 'givenProtein',
  'antecedent-after-anaphor': 'antecedentAfterAnaphor',
  'repeated-anaphor': 'repeatedAnaphor',
};

function dropCounts(dropped: DroppedLink[], side: 'gold' | 'response'): DropCounts {
  const counts = Object.fromEntries(DROP_REASONS.map((r) => [DROP_KEYS[r], 0])) as DropCounts;
  for (const d of dropped) if (d.side === side) counts[DROP_KEYS[d.reason]]++;
  return counts;
}

export function scoreCoref(documents: readonly CorefDocumentInput[]): CorefScore {
  const byTypeOf = () => Object.fromEntries(ANAPHOR_TYPES.map((t) => [t, emptyTally()])) as Record<AnaphorType, Tally>;
  const [surfaceMentions, proteinMentions, surface, protein] = [emptyTally(), emptyTally(), emptyTally(), emptyTally()];
  const [surfaceByType, proteinByType] = [byTypeOf(), byTypeOf()];
  const droppedLinks: DroppedLink[] = [];
  for (const d of documents) {
    const gold = prepareSide(d.gold, d.proteins, { doc: d.doc, side: 'gold', file: d.goldFile }, droppedLinks);
    const response = prepareSide(d.response, d.proteins, { doc: d.doc, side: 'response', file: d.responseFile }, droppedLinks);

    const onSurface = alignMentions(response.expressions, gold.expressions, surfaceMentions);
    const surfaceKeyed = (side: PreparedSide, id: (e: Expression) => string | undefined): Keyed[] =>
      side.links.map((l) => ({ anaphor: l.anaphor, key: surfaceKey(id(l.anaphor), l.antecedents.map(id)) }));
    tallyLinks(
      surfaceKeyed(gold, (e) => e.id),
      surfaceKeyed(response, (e) => onSurface.get(e.id)),
      surface,
      surfaceByType,
    );

    const goldProtein = proteinLinksOf(gold, d.proteins, true);
    const responseProtein = proteinLinksOf(response, d.proteins, false);
    // Protein mode scores every response expression, but only the gold ones on protein chains.
    const onProtein = alignMentions(response.expressions, goldProtein.targets, proteinMentions);
    const proteinKeyed = (links: ProteinLink[], id: (e: Expression) => string | undefined): Keyed[] =>
      links.map((l) => ({ anaphor: l.anaphor, key: keyOf([id(l.anaphor), l.protein]) }));
    tallyLinks(
      proteinKeyed(goldProtein.links, (e) => e.id),
      proteinKeyed(responseProtein.links, (e) => onProtein.get(e.id)),
      protein,
      proteinByType,
    );
  }
  const perType = Object.fromEntries(
    ANAPHOR_TYPES.map((t) => [t, { surface: countsOf(surfaceByType[t]), protein: countsOf(proteinByType[t]) }]),
  ) as CorefScore['perType'];
  return {
    mentions: { surface: countsOf(surfaceMentions), protein: countsOf(proteinMentions) },
    surface: countsOf(surface),
    protein: countsOf(protein),
    perType,
    dropped: { gold: dropCounts(droppedLinks, 'gold'), response: dropCounts(droppedLinks, 'response') },
    droppedLinks,
  };
}

/** The protein links of one annotation scored as a gold (the scored links' chains followed to the given proteins). */
export function proteinLinks(
  annotation: CorefAnnotation,
  proteins: Map<string, Protein>,
  file?: string,
): { anaphor: Expression; target: string }[] {
  const side = prepareSide(annotation, proteins, { doc: '', side: 'gold', file }, []);
  return proteinLinksOf(side, proteins, true).links.map((l) => ({ anaphor: l.anaphor, target: l.protein }));
}
