// PubAnnotation relations as CREL's relations between concepts. A relation {id, subj, pred,
// obj} joins two denotations; when both became mentions with ids, it is a relation between
// their concepts: `pred` its type, each end's first id its concept (how CREL's PubAnnotation
// export writes a relation: between the first mentions of its two concepts). Relations with
// an end that carries no id (or names no denotation) relate no concepts: dropped, counted in
// a warning, as relations were before CREL.
import type { ValidationIssue } from '../../tasks/types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first id of the mention a denotation id became, if it has one. */
function conceptOf(end: unknown, mentions: ReadonlyMap<string, Record<string, unknown>>): string | undefined {
  const ids = typeof end === 'string' ? mentions.get(end)?.ids : undefined;
  return Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : undefined;
}

/**
 * The layer's relations between concepts (`concept_relations` items as servers send them),
 * and a warning for those that relate no two concepts. `mentions`: denotation id → mention.
 */
export function conceptRelationsOf(
  relations: unknown,
  mentions: ReadonlyMap<string, Record<string, unknown>>,
  layer: { prefix: string; named: string },
  warnings: ValidationIssue[],
): Array<Record<string, unknown>> {
  if (!Array.isArray(relations) || relations.length === 0) return [];
  const read: Array<Record<string, unknown>> = [];
  let dropped = 0;
  for (const r of relations) {
    const concept1 = isObject(r) ? conceptOf(r.subj, mentions) : undefined;
    const concept2 = isObject(r) ? conceptOf(r.obj, mentions) : undefined;
    if (isObject(r) && typeof r.pred === 'string' && concept1 !== undefined && concept2 !== undefined)
      read.push({ type: r.pred, concept1, concept2 });
    else dropped++;
  }
  if (dropped > 0)
    warnings.push({
      path: `${layer.prefix}relations`,
      message: `${dropped} relation${dropped === 1 ? '' : 's'}${layer.named} ignored: only a relation (pred) between two denotations with concept ids is read, as a relation between concepts (concept_relations)`,
    });
  return read;
}
