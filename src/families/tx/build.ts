// Building a TX release index from NCBI Taxonomy's taxdump files, which separate fields by
// TAB|TAB and end each line with TAB|:
//   nodes.dmp     tax_id | parent tax_id | rank | …   (the current taxa: the first field)
//   merged.dmp    old_tax_id | new_tax_id             (ids merged into another)
//   delnodes.dmp  tax_id                              (ids deleted)
// All are streamed (gzip or not). Choices: a merge whose target was merged again is
// followed to the current taxon; a merge that leads to no current taxon, and a merged or
// deleted id that is also a current taxon, are left out and counted (the current taxon
// wins); a line whose first field is not a taxon id is skipped and quoted.
// The release is named by the caller, never guessed: the taxdump holds no version (no
// header, no version line; only the archive's name on NCBI's server carries a date), and
// a file's modification time says when it was copied, not which release it is. A file of
// the wrong kind for its place (merged.dmp given as delnodes.dmp turns every merged id
// into a "deleted" one) is refused by its column count, read on its first taxon line.

import { readLines } from '../../shared/lines.ts';
import { findSorted } from '../../shared/sorted.ts';
import { writeTaxonomyIndex, type TaxonomyRelease } from './taxonomy.ts';

export interface TaxonomySources {
  nodes: string;
  merged?: string;
  delnodes?: string;
  out: string;
  /** The release's name, as warnings show it ("2024-06-01", "taxdmp_2024-06-01"). */
  release: string;
  /** YYYY-MM-DD, when known. */
  date?: string;
}

/** Each dump file: the option that names it and the columns its lines have. */
const KINDS = {
  nodes: { file: 'nodes.dmp', columns: [13, 18], shown: '13 columns (18 in new_taxdump): tax_id | parent tax_id | rank | embl code | …' },
  merged: { file: 'merged.dmp', columns: [2], shown: '2 columns: old_tax_id | new_tax_id' },
  delnodes: { file: 'delnodes.dmp', columns: [1], shown: '1 column: tax_id' },
} as const;
type Kind = keyof typeof KINDS;

/** What a file with this many columns probably is, to say so when it is given in the wrong place. */
function likelyFile(columns: number): string {
  const known = (Object.keys(KINDS) as Kind[]).find((k) => (KINDS[k].columns as readonly number[]).includes(columns));
  if (known) return `; it looks like ${KINDS[known].file}`;
  return columns === 4 ? '; it looks like names.dmp' : '';
}

/** The fields of a dump line: TAB|TAB between them, TAB| at the end. */
const fieldCount = (line: string): number => line.replace(/\t\|\s*$/, '').split('\t|\t').length;

export interface SkippedLines {
  count: number;
  /** The first few, as `file line N: text`. */
  examples: string[];
}

export interface TaxonomySummary {
  release: TaxonomyRelease;
  taxa: number;
  merged: number;
  deleted: number;
  /** Merges left out: they lead to no current taxon, or the old id is itself current. */
  mergesLeftOut: number;
  /** Deleted ids left out: they are current taxa or merged ids. */
  deletionsLeftOut: number;
  skipped: SkippedLines;
  bytes: number;
}

/** Taxon ids are positive and fit an XML-RPC int (and a Uint32Array). */
export const MAX_TAXID = 2 ** 31 - 1;
const ID = /^[1-9][0-9]{0,9}$/;

function readId(field: string | undefined): number | undefined {
  const text = field?.trim();
  if (text === undefined || !ID.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_TAXID ? id : undefined;
}

/** Each line's fields (TAB|TAB-separated, the last ending in TAB|), as the dumps are written. */
async function* rows(path: string, kind: Kind, width: number, skipped: SkippedLines): AsyncGenerator<number[]> {
  let n = 0;
  let checked = false;
  for await (const line of readLines(path)) {
    n++;
    if (line.trim() === '') continue;
    const fields = line.split('|', width);
    if (!checked && readId(fields[0]) !== undefined) {
      checked = true;
      const { file, columns, shown } = KINDS[kind];
      const count = fieldCount(line);
      if (!(columns as readonly number[]).includes(count)) {
        throw new Error(
          `${path} (given as --${kind}) is not ${file}: line ${n} has ${count} column${count === 1 ? '' : 's'} (${line.slice(0, 60).trim()})${likelyFile(count)}; ${file} has ${shown}`,
        );
      }
    }
    const ids = fields.map(readId);
    if (fields.length < width || ids.some((id) => id === undefined)) {
      skipped.count++;
      if (skipped.examples.length < 5) skipped.examples.push(`${path} line ${n}: ${line.slice(0, 80)}`);
      continue;
    }
    yield ids as number[];
  }
}

const sortedUnique = (ids: Iterable<number>): Uint32Array => Uint32Array.from(new Set(ids)).sort();

export async function buildTaxonomyIndex(sources: TaxonomySources): Promise<TaxonomySummary> {
  const skipped: SkippedLines = { count: 0, examples: [] };
  const current: number[] = [];
  for await (const [id] of rows(sources.nodes, 'nodes', 2, skipped)) current.push(id);
  const taxa = sortedUnique(current);
  // A binary search, not a Set: a whole release has millions of taxa.
  const isCurrent = (id: number): boolean => findSorted(taxa, id) >= 0;

  const mergedTo = new Map<number, number>();
  if (sources.merged) for await (const [from, to] of rows(sources.merged, 'merged', 2, skipped)) mergedTo.set(from, to);
  let mergesLeftOut = 0;
  const merges: Array<[number, number]> = [];
  for (const [from, to] of mergedTo) {
    // Follow a chain of merges to the current taxon (at most as many steps as merges: no loop).
    let target = to;
    for (let steps = 0; !isCurrent(target) && mergedTo.has(target) && steps < mergedTo.size; steps++) target = mergedTo.get(target)!;
    if (isCurrent(from) || !isCurrent(target)) mergesLeftOut++;
    else merges.push([from, target]);
  }
  merges.sort((a, b) => a[0] - b[0]);

  const deletedIds: number[] = [];
  if (sources.delnodes) for await (const [id] of rows(sources.delnodes, 'delnodes', 1, skipped)) deletedIds.push(id);
  const deletedSet = new Set(deletedIds);
  const mergedFrom = Uint32Array.from(merges, ([from]) => from);
  const deleted = sortedUnique([...deletedSet].filter((id) => !isCurrent(id) && findSorted(mergedFrom, id) < 0));

  const release: TaxonomyRelease = { name: sources.release, ...(sources.date ? { date: sources.date } : {}) };
  const bytes = writeTaxonomyIndex(sources.out, {
    release,
    taxa,
    mergedFrom,
    mergedInto: Uint32Array.from(merges, ([, to]) => to),
    deleted,
  });
  return {
    release,
    taxa: taxa.length,
    merged: merges.length,
    deleted: deleted.length,
    mergesLeftOut,
    deletionsLeftOut: deletedSet.size - deleted.length,
    skipped,
    bytes,
  };
}
