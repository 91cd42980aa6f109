// Accession checks shared by INT and IPT: the pattern (error), then the loaded release:
// unknown → warning and the item is dropped; secondary → warning and mapped to its
// primary, or dropped when it maps to several; and, after mapping, two items that became
// the same → the better-ranked one is kept.

import { explainAccession } from '../uniprot/pattern.ts';
import { lookupAll, type AccessionLookup, type LookupResult } from '../uniprot/index.ts';
import type { Report } from './checks.ts';

/**
 * The accession, or undefined after reporting an error. Surrounding white space is
 * removed first: untyped `<value>` strings in pretty-printed XML often carry it.
 */
export function checkAccession(value: string, path: string, report: Report): string | undefined {
  const accession = value.trim();
  const problem = explainAccession(accession);
  if (problem === null) return accession;
  report.error(path, problem);
  return undefined;
}

function releaseName(lookup: AccessionLookup): string {
  return `UniProt release ${lookup.release.name}`;
}

/**
 * The release's answers for all accessions of an answer in one batched call (much faster
 * than one by one on a big release), results[i] for accessions[i]; null without a release.
 */
export function lookupAccessions(accessions: readonly string[], lookup: AccessionLookup | null): LookupResult[] | null {
  return lookup ? lookupAll(lookup, accessions) : null;
}

/**
 * The primary accession to store for a well-formed accession, or undefined when the item
 * is dropped (with a warning saying why). Without a release, every well-formed accession
 * is kept as sent. `known` is the release's answer when already looked up (lookupAccessions).
 */
export function resolveAccession(
  accession: string,
  path: string,
  lookup: AccessionLookup | null,
  report: Report,
  item: string,
  known?: LookupResult,
): string | undefined {
  if (!lookup) return accession;
  const found = known ?? lookup.lookup(accession);
  if (found.status === 'primary') return accession;
  if (found.status === 'unknown') {
    report.warn(path, `${accession} is not an accession of ${releaseName(lookup)} (neither primary nor secondary); ${item} dropped`);
    return undefined;
  }
  if (found.primaries.length === 1) {
    report.warn(
      path,
      `${accession} is a secondary accession in ${releaseName(lookup)}; mapped to its primary accession ${found.primaries[0]}`,
    );
    return found.primaries[0];
  }
  report.warn(
    path,
    `${accession} is a secondary accession of ${found.primaries.length} entries in ${releaseName(lookup)} (${found.primaries.join(', ')}); ambiguous, ${item} dropped`,
  );
  return undefined;
}

export interface Ranked {
  /** Position in the list as sent, for messages. */
  index: number;
  rank: number;
}

/**
 * Keeps, among items that share a key after mapping, the one with the best (lowest)
 * rank, warning about each dropped one. Items keep their order otherwise. `mapped` names
 * what was mapped (UniProt's secondary accessions; a family's merged ids).
 */
export function keepBestRanked<T extends Ranked>(
  items: T[],
  keyOf: (item: T) => string,
  key: string,
  field: string,
  report: Report,
  mapped = 'secondary accessions',
): T[] {
  const best = new Map<string, T>();
  for (const item of items) {
    const k = keyOf(item);
    const held = best.get(k);
    if (!held || item.rank < held.rank) best.set(k, item);
  }
  return items.filter((item) => {
    const held = best.get(keyOf(item))!;
    if (held === item) return true;
    report.warn(
      `${key}[${item.index}].${field}`,
      `after ${mapped} were mapped, this item (rank ${item.rank}) repeats ${key}[${held.index}] (${keyOf(item)}, rank ${held.rank}); kept the better-ranked one, dropped this one`,
    );
    return false;
  });
}
