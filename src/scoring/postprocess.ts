// BC II.5 post-processing of ranked accession lists (INT) and pair lists (IPT), per
// document, applied to the ranked list: homonym-ortholog mapping (turn a right protein
// from the wrong species into the gold protein) and organism filtering (drop results from
// species the article is not about). Mapping comes first, then filtering. A key holding a
// TAB is a pair (two accessions, see unorderedPairKey), any other key one accession: a TAB can
// never be part of an accession read from a tab-separated file.

import { ScoringInputError } from './errors.ts';
import { compareIds } from './ranking.ts';
import { unorderedPairKey, pairOf, type HomonymOrthologMap, type OrganismMap } from './types.ts';

const isPair = (key: string): boolean => key.includes('\t');

function accessionsOf(key: string): string[] {
  return isPair(key) ? pairOf(key) : [key];
}

function addTarget(targets: Map<string, string[]>, item: string, gold: string): void {
  const list = targets.get(item);
  if (!list) targets.set(item, [gold]);
  else if (!list.includes(gold)) list.push(gold);
}

/**
 * Which result items are mappable to which gold items. One accession: an ortholog of gold
 * item g that occurs in the results and is not itself gold maps to g. Pairs: for gold pair (a, b),
 * every combination of a's candidates (its orthologs present in the document's result
 * pairs, plus a when present) with b's candidates is mappable to (a, b), unless it is
 * itself a gold pair. Gold items are visited in ascending order, which fixes the order
 * of several replacements at one position (the spec is silent; ties elsewhere are broken
 * by ascending id too).
 */
function mappingTargets(
  ordered: readonly string[],
  goldKeys: readonly string[],
  goldSet: ReadonlySet<string>,
  orthologMap: HomonymOrthologMap,
): Map<string, string[]> {
  const targets = new Map<string, string[]>();
  const present = new Set<string>();
  for (const key of ordered) for (const accession of accessionsOf(key)) present.add(accession);
  const candidates = (accession: string, pair: boolean): string[] => {
    const list = (orthologMap.get(accession) ?? []).filter((o) => present.has(o));
    if (pair && present.has(accession)) list.push(accession);
    return list;
  };
  for (const gold of [...goldKeys].sort(compareIds)) {
    if (!isPair(gold)) {
      for (const ortholog of candidates(gold, false)) if (!goldSet.has(ortholog)) addTarget(targets, ortholog, gold);
      continue;
    }
    const [a, b] = pairOf(gold);
    const forB = candidates(b, true);
    for (const x of candidates(a, true)) {
      for (const y of forB) {
        const key = unorderedPairKey(x, y);
        if (!goldSet.has(key)) addTarget(targets, key, gold);
      }
    }
  }
  return targets;
}

/**
 * Replaces mappable items in place (by all their gold items when several), then removes
 * later duplicates; the position in the returned list is the renumbered rank.
 */
export function mapHomonymOrthologs(
  ordered: readonly string[],
  goldKeys: readonly string[],
  goldSet: ReadonlySet<string>,
  orthologMap: HomonymOrthologMap,
): string[] {
  const targets = mappingTargets(ordered, goldKeys, goldSet, orthologMap);
  if (targets.size === 0) return ordered.slice();
  const seen = new Set<string>();
  const mapped: string[] = [];
  for (const key of ordered) {
    for (const replacement of targets.get(key) ?? [key]) {
      if (seen.has(replacement)) continue;
      seen.add(replacement);
      mapped.push(replacement);
    }
  }
  return mapped;
}

/**
 * Keeps a result only when the taxon of each of its accessions is among the taxa of the
 * document's gold accessions; accessions missing from the map are removed. A gold
 * accession missing from the map is an error (the document's species would be unknown).
 */
export function filterByOrganism(
  doc: string,
  ordered: readonly string[],
  goldKeys: readonly string[],
  organisms: OrganismMap,
  file?: string,
): string[] {
  const taxa = new Set<string>();
  for (const gold of goldKeys) {
    for (const accession of accessionsOf(gold)) {
      const taxon = organisms.get(accession);
      if (taxon === undefined) {
        throw new ScoringInputError(`gold accession ${accession} of document ${doc} is missing from the organism map`, {
          file,
          hint: 'add a line "accession<TAB>taxon id" for every gold accession',
        });
      }
      taxa.add(taxon);
    }
  }
  return ordered.filter((key) =>
    accessionsOf(key).every((accession) => {
      const taxon = organisms.get(accession);
      return taxon !== undefined && taxa.has(taxon);
    }),
  );
}
