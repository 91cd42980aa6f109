// BioNLP-ST 2011 protein coreference scoring, in the task's two modes.
//
// A response expression matches a gold one when it covers the gold minimal boundary and
// lies inside the gold maximal boundary (exact match when there is no minimal boundary).
// Surface mode: a response link is correct when both its ends match the ends of one gold
// link, each gold link matched at most once. Protein mode (primary): every link's
// antecedent chain is followed until an expression containing given proteins; each
// (anaphor, protein) is a protein link. Per anaphor type, the type is induced from the
// anaphor's first word and word count (the task paper's sub-type table), for gold and
// response anaphors alike; precision counts responses of that type, recall gold links.

import { ScoringInputError } from './errors.ts';
import { f1, safeRatio } from './metrics.ts';
import type { CorefAnnotation, Expression, Protein, Span } from './coref-input.ts';

export const ANAPHOR_TYPES = ['RELAT', 'PRON', 'DNP', 'APPOS', 'other'] as const;
export type AnaphorType = (typeof ANAPHOR_TYPES)[number];

// Sub type = first word + 1 (one-word expression) or 2 (longer). Unlisted sub types are
// "other"; no sub type maps to APPOS, so APPOS stays empty (as in the paper's table).
const SUBTYPES: Record<string, AnaphorType> = {
  'both-1': 'PRON', 'both-2': 'PRON', 'either-1': 'PRON', 'it-1': 'PRON', 'its-1': 'PRON',
  'one-2': 'PRON', 'their-1': 'PRON', 'them-1': 'PRON', 'these-1': 'PRON', 'they-1': 'PRON',
  'this-1': 'PRON', 'those-1': 'PRON',
  'such-2': 'DNP', 'the-2': 'DNP', 'these-2': 'DNP', 'this-2': 'DNP',
  'that-1': 'RELAT', 'which-1': 'RELAT', 'whose-1': 'RELAT', 'whose-2': 'RELAT',
};

export function anaphorType(text: string): AnaphorType {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
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

export interface CorefCounts {
  tp: number;
  fp: number;
  fn: number;
  p: number;
  r: number;
  f: number;
}

export interface CorefScore {
  surface: CorefCounts;
  protein: CorefCounts;
  perType: Record<AnaphorType, { surface: CorefCounts; protein: CorefCounts }>;
}

interface ResolvedLink {
  anaphor: Expression;
  /** Surface mode: the antecedent expression; protein mode: the protein id. */
  target: Expression | string;
}

function resolve(annotation: CorefAnnotation, proteins: Map<string, Protein>, id: string, file: string | undefined, line: number): Expression {
  const found = annotation.expressions.get(id) ?? proteins.get(id);
  if (!found) throw new ScoringInputError(`link refers to ${id}, which is neither an expression nor a given protein`, { file, line });
  return found;
}

function surfaceLinks(annotation: CorefAnnotation, proteins: Map<string, Protein>, file?: string): ResolvedLink[] {
  return annotation.links.map((link) => ({
    anaphor: resolve(annotation, proteins, link.anaphor, file, link.line),
    target: resolve(annotation, proteins, link.antecedent, file, link.line),
  }));
}

/** Surface links turned into (anaphor, protein) links through antecedent chains. */
export function proteinLinks(annotation: CorefAnnotation, proteins: Map<string, Protein>, file?: string): ResolvedLink[] {
  const surface = surfaceLinks(annotation, proteins, file);
  const antecedentsOf = new Map<string, Expression[]>();
  for (const link of surface) {
    const list = antecedentsOf.get(link.anaphor.id) ?? [];
    list.push(link.target as Expression);
    antecedentsOf.set(link.anaphor.id, list);
  }
  const given = [...proteins.values()];
  const contained = (e: Span) => given.filter((p) => e.start <= p.start && p.end <= e.end).map((p) => p.id);
  const result: ResolvedLink[] = [];
  const seen = new Set<string>();
  for (const link of surface) {
    // Breadth-first along the chain; `visited` stops cycles such as A→B→A.
    const visited = new Set<string>([link.anaphor.id]);
    let frontier = [link.target as Expression];
    while (frontier.length > 0) {
      const next: Expression[] = [];
      for (const antecedent of frontier) {
        if (visited.has(antecedent.id)) continue;
        visited.add(antecedent.id);
        const found = contained(antecedent);
        if (found.length > 0) {
          for (const protein of found) {
            const key = `${link.anaphor.id}\u0000${protein}`;
            if (!seen.has(key)) {
              seen.add(key);
              result.push({ anaphor: link.anaphor, target: protein });
            }
          }
        } else next.push(...(antecedentsOf.get(antecedent.id) ?? []));
      }
      frontier = next;
    }
  }
  return result;
}

interface Tally {
  correct: number;
  responses: number;
  matchedGold: number;
  gold: number;
}

function emptyTally(): Tally {
  return { correct: 0, responses: 0, matchedGold: 0, gold: 0 };
}

/** Greedy one-to-one matching of response links to gold links, tallied overall and by type. */
function tallyLinks(gold: ResolvedLink[], response: ResolvedLink[], overall: Tally, byType: Record<AnaphorType, Tally>): void {
  const used = new Uint8Array(gold.length);
  for (const g of gold) {
    overall.gold++;
    byType[anaphorType(g.anaphor.text)].gold++;
  }
  for (const r of response) {
    const type = anaphorType(r.anaphor.text);
    overall.responses++;
    byType[type].responses++;
    const index = gold.findIndex((g, i) => {
      if (used[i] || !expressionMatches(r.anaphor, g.anaphor)) return false;
      if (typeof g.target === 'string' || typeof r.target === 'string') return g.target === r.target;
      return expressionMatches(r.target, g.target);
    });
    if (index === -1) continue;
    used[index] = 1;
    overall.correct++;
    byType[type].correct++;
    overall.matchedGold++;
    byType[anaphorType(gold[index].anaphor.text)].matchedGold++;
  }
}

function countsOf(t: Tally): CorefCounts {
  const p = safeRatio(t.correct, t.responses);
  const r = safeRatio(t.matchedGold, t.gold);
  return { tp: t.correct, fp: t.responses - t.correct, fn: t.gold - t.matchedGold, p, r, f: f1(p, r) };
}

export function scoreCoref(documents: readonly CorefDocumentInput[]): CorefScore {
  const byTypeOf = () => Object.fromEntries(ANAPHOR_TYPES.map((t) => [t, emptyTally()])) as Record<AnaphorType, Tally>;
  const surface = emptyTally();
  const protein = emptyTally();
  const surfaceByType = byTypeOf();
  const proteinByType = byTypeOf();
  for (const d of documents) {
    tallyLinks(surfaceLinks(d.gold, d.proteins, d.goldFile), surfaceLinks(d.response, d.proteins, d.responseFile), surface, surfaceByType);
    tallyLinks(proteinLinks(d.gold, d.proteins, d.goldFile), proteinLinks(d.response, d.proteins, d.responseFile), protein, proteinByType);
  }
  const perType = Object.fromEntries(
    ANAPHOR_TYPES.map((t) => [t, { surface: countsOf(surfaceByType[t]), protein: countsOf(proteinByType[t]) }]),
  ) as CorefScore['perType'];
  return { surface: countsOf(surface), protein: countsOf(protein), perType };
}
