// An NCBI Taxonomy release as the TX validator consults it: the current taxa (nodes.dmp),
// ids merged into another (merged.dmp, chains resolved when built) and deleted ids
// (delnodes.dmp). Kept as sorted Uint32Arrays in a section file (src/shared/section-file.ts),
// so a whole release (~2.7 M taxa) loads in one read and each lookup is a binary search.

import { parseSectionFile, readWholeFile, writeSectionFile, type SectionFileFormat } from '../../shared/section-file.ts';
import { findSorted } from '../../shared/sorted.ts';

const FORMAT: SectionFileFormat = {
  magic: Buffer.from('MSTAXID\n', 'latin1'),
  version: 1,
  name: 'NCBI Taxonomy index',
  rebuild: 'rebuild it with "metaserver taxonomy build"',
};

export interface TaxonomyRelease {
  name: string;
  /** YYYY-MM-DD, when known. */
  date?: string;
}

export interface TaxonomyContents {
  release: TaxonomyRelease;
  /** Current taxa, ascending. */
  taxa: Uint32Array;
  /** Merged ids, ascending, and the current taxon each was merged into (parallel). */
  mergedFrom: Uint32Array;
  mergedInto: Uint32Array;
  /** Deleted ids, ascending. */
  deleted: Uint32Array;
}

export type TaxonStatus = { status: 'current' } | { status: 'merged'; into: number } | { status: 'deleted' } | { status: 'unknown' };

const CURRENT: TaxonStatus = { status: 'current' };
const DELETED: TaxonStatus = { status: 'deleted' };
const UNKNOWN: TaxonStatus = { status: 'unknown' };

interface Header {
  release: TaxonomyRelease;
  taxa: number;
  merged: number;
  deleted: number;
}

export class TaxonomyIndex {
  readonly release: TaxonomyRelease & { taxa: number; merged: number; deleted: number };

  constructor(private readonly contents: TaxonomyContents) {
    this.release = {
      ...contents.release,
      taxa: contents.taxa.length,
      merged: contents.mergedFrom.length,
      deleted: contents.deleted.length,
    };
  }

  lookup(taxid: number): TaxonStatus {
    const { taxa, mergedFrom, mergedInto, deleted } = this.contents;
    if (findSorted(taxa, taxid) >= 0) return CURRENT;
    const merged = findSorted(mergedFrom, taxid);
    if (merged >= 0) return { status: 'merged', into: mergedInto[merged] };
    return findSorted(deleted, taxid) >= 0 ? DELETED : UNKNOWN;
  }
}

export function writeTaxonomyIndex(path: string, contents: TaxonomyContents): number {
  const header: Header = {
    release: contents.release,
    taxa: contents.taxa.length,
    merged: contents.mergedFrom.length,
    deleted: contents.deleted.length,
  };
  return writeSectionFile(
    path,
    FORMAT,
    { ...header },
    {
      taxa: contents.taxa,
      mergedFrom: contents.mergedFrom,
      mergedInto: contents.mergedInto,
      deleted: contents.deleted,
    },
  );
}

export function loadTaxonomyIndex(path: string): TaxonomyIndex {
  const memory = readWholeFile(path, FORMAT);
  const file = parseSectionFile<Header>(memory, FORMAT, path);
  const u32 = (name: string) => file.view(name, (o, n) => new Uint32Array(memory, o, n), 4);
  return new TaxonomyIndex({
    release: file.header.release,
    taxa: u32('taxa'),
    mergedFrom: u32('mergedFrom'),
    mergedInto: u32('mergedInto'),
    deleted: u32('deleted'),
  });
}
