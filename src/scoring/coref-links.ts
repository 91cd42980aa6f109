// One side of a COREF document (the gold or a response) made ready for scoring the way the
// task's official scorer (CRScorer, BioNLP-ST 2011) does it: the links it does not score
// are dropped and reported, and for protein mode the surface links become
// (anaphor, protein) links by following antecedent chains.

import { ScoringInputError } from './errors.ts';
import type { CorefAnnotation, CorefLinkRecord, Expression, Protein } from './coref-input.ts';

export type Side = 'gold' | 'response';

/**
 * Why a link is not scored:
 * - `given-protein`: it names a given protein (or another non-`Exp` annotation) where an
 *   expression of the `.a2` belongs; the official scorer only knows `.a2` expressions.
 * - `antecedent-after-anaphor`: an antecedent does not start before the anaphor (the
 *   official "invalid … link removed (antecedent appears after anaphor)"), gold and response.
 * - `repeated-anaphor`: a response link whose anaphor already has a link; the first one counts.
 */
export type DropReason = 'given-protein' | 'antecedent-after-anaphor' | 'repeated-anaphor';
export const DROP_REASONS: readonly DropReason[] = ['given-protein', 'antecedent-after-anaphor', 'repeated-anaphor'];

export interface DroppedLink {
  doc: string;
  side: Side;
  link: string;
  file?: string;
  line: number;
  reason: DropReason;
  /** The place, the link and the reason in words. */
  message: string;
}

export interface SurfaceLink {
  id: string;
  anaphor: Expression;
  antecedents: Expression[];
}

export interface ProteinLink {
  id: string;
  anaphor: Expression;
  protein: string;
}

export interface PreparedSide {
  /** The `Exp` expressions, in file order: the mentions that mention detection scores. */
  expressions: Expression[];
  /** The links that are scored, in file order. */
  links: SurfaceLink[];
}

export interface SidePlace {
  doc: string;
  side: Side;
  file?: string;
}

const isExpression = (e: Expression) => e.type === undefined || e.type === 'Exp';

function dropOf(place: SidePlace, record: CorefLinkRecord, reason: DropReason, why: string): DroppedLink {
  const where = `${place.file ?? place.doc}, line ${record.line}`;
  return { ...place, link: record.id, line: record.line, reason, message: `${where}: ${place.side} link ${record.id} removed: ${why}` };
}

/** The links of one side that are scored; every other one is appended to `dropped`. */
export function prepareSide(
  annotation: CorefAnnotation,
  proteins: Map<string, Protein>,
  place: SidePlace,
  dropped: DroppedLink[],
): PreparedSide {
  const links: SurfaceLink[] = [];
  const firstLinkOf = new Map<string, string>();
  for (const record of annotation.links) {
    const ids = [record.anaphor, ...record.antecedents];
    for (const id of ids) {
      if (!annotation.expressions.has(id) && !proteins.has(id)) {
        throw new ScoringInputError(`link refers to ${id}, which is neither an expression nor a given protein`, {
          file: place.file,
          line: record.line,
        });
      }
    }
    const notExpression = ids.find((id) => !annotation.expressions.has(id) || !isExpression(annotation.expressions.get(id)!));
    if (notExpression !== undefined) {
      const what = proteins.has(notExpression) ? 'a given protein' : `a ${annotation.expressions.get(notExpression)!.type} annotation`;
      dropped.push(dropOf(place, record, 'given-protein', `${notExpression} is ${what}, not an expression of the .a2`));
      continue;
    }
    const anaphor = annotation.expressions.get(record.anaphor)!;
    const antecedents = record.antecedents.map((id) => annotation.expressions.get(id)!);
    const late = antecedents.find((a) => a.start >= anaphor.start);
    if (late) {
      dropped.push(
        dropOf(
          place,
          record,
          'antecedent-after-anaphor',
          `its antecedent ${late.id} (at ${late.start}) does not start before its anaphor ${anaphor.id} (at ${anaphor.start})`,
        ),
      );
      continue;
    }
    const first = firstLinkOf.get(anaphor.id);
    if (place.side === 'response' && first !== undefined) {
      dropped.push(
        dropOf(
          place,
          record,
          'repeated-anaphor',
          `its anaphor ${anaphor.id} already has link ${first}; only the first link of an anaphor counts`,
        ),
      );
      continue;
    }
    firstLinkOf.set(anaphor.id, record.id);
    links.push({ id: record.id, anaphor, antecedents });
  }
  return { expressions: [...annotation.expressions.values()].filter(isExpression), links };
}

/**
 * Protein links of one side, and (for the gold) the expressions protein mode scores.
 *
 * For each link the official scorer walks the chain: level 1 is the link's antecedents,
 * level k+1 the antecedents of the link whose anaphor is the first antecedent of level k
 * (an anaphor with several gold links continues through its last one). At every level the
 * anaphor's own proteins are weighed first, then the level's; whichever weighs at least as
 * much as the best so far becomes the best, so the most proteins win and later ones win
 * ties. Each protein of the best is one protein link. Chains end: every antecedent starts
 * before its anaphor (prepareSide drops the others).
 *
 * A weight is the number of given proteins inside, except that on the gold side the
 * official scorer, after each link that reaches a protein, overwrites the weight of the
 * link's anaphor (when first scored) and of its antecedents with the link's best weight;
 * later links are weighed with those numbers (their proteins stay the real ones). That is
 * reproduced, so gold figures agree with the official ones. The gold's scored expressions
 * are the anaphors and the direct antecedents of the links that reach a protein, in order.
 */
export function proteinLinksOf(
  side: PreparedSide,
  proteins: Map<string, Protein>,
  isGold: boolean,
): { links: ProteinLink[]; targets: Expression[] } {
  const given = [...proteins.values()];
  const inside = new Map<string, string[]>();
  const containedIn = (e: Expression): string[] => {
    let ids = inside.get(e.id);
    if (!ids) {
      ids = given.filter((p) => e.start <= p.start && p.end <= e.end).map((p) => p.id);
      inside.set(e.id, ids);
    }
    return ids;
  };
  const overwritten = new Map<string, number>();
  const weightOf = (e: Expression) => overwritten.get(e.id) ?? containedIn(e).length;
  const chainOf = new Map<string, Expression[]>();
  for (const link of side.links) chainOf.set(link.anaphor.id, link.antecedents);
  const links: ProteinLink[] = [];
  const targets = new Map<string, Expression>();
  for (const link of side.links) {
    let weight = 0;
    let best: string[] = [];
    let level: Expression[] | undefined = link.antecedents;
    while (level) {
      if (weightOf(link.anaphor) >= weight) [weight, best] = [weightOf(link.anaphor), containedIn(link.anaphor)];
      const levelWeight = level.reduce((sum, e) => sum + weightOf(e), 0);
      // A protein inside two antecedents of one level is linked once.
      if (levelWeight >= weight) [weight, best] = [levelWeight, [...new Set(level.flatMap(containedIn))]];
      level = chainOf.get(level[0].id);
    }
    if (weight === 0) continue;
    for (const protein of best) links.push({ id: link.id, anaphor: link.anaphor, protein });
    if (!targets.has(link.anaphor.id)) {
      targets.set(link.anaphor.id, link.anaphor);
      if (isGold) overwritten.set(link.anaphor.id, weight);
    }
    for (const e of link.antecedents) {
      if (!targets.has(e.id)) targets.set(e.id, e);
      if (isGold) overwritten.set(e.id, weight);
    }
  }
  return { links, targets: [...targets.values()] };
}
