// Looking accessions up in a loaded UniProt release: the interface validation depends on,
// and its implementation over the compact tables of tables.ts.

import { decodeAccession, encodeAccession } from './codec.ts';
import { readIndexFile, type IndexContents, type ReadOptions, type ReleaseInfo } from './index-file.ts';
import { KEY_BITS, scrambleCode } from './keys.ts';
import { findSorted, hasKey, type PrimaryTables, type SecondaryTables } from './tables.ts';

export type { ReleaseInfo } from './index-file.ts';

export type LookupResult = { status: 'primary' } | { status: 'secondary'; primaries: string[] } | { status: 'unknown' };

export interface AccessionLookup {
  release: { name: string; date?: string; primaries: number; secondaries: number };
  /** A string that is not an accession at all is simply 'unknown'. */
  lookup(acc: string): LookupResult;
}

const PRIMARY: LookupResult = { status: 'primary' };
const UNKNOWN: LookupResult = { status: 'unknown' };

export class UniprotIndex implements AccessionLookup {
  readonly release: AccessionLookup['release'];
  private readonly primaries: PrimaryTables;
  private readonly secondaries: SecondaryTables;
  private readonly scale: number;

  constructor(contents: IndexContents) {
    this.primaries = contents.primaries;
    this.secondaries = contents.secondaries;
    this.scale = 2 ** (KEY_BITS - contents.primaries.bucketBits);
    this.release = {
      name: contents.release.name,
      ...(contents.release.date ? { date: contents.release.date } : {}),
      primaries: contents.primaries.remainders.length,
      secondaries: contents.secondaries.codes.length,
    };
  }

  /** Whether the accession code (codec.ts) is a primary accession of the release. */
  hasPrimaryCode(code: number): boolean {
    return hasKey(this.primaries, scrambleCode(code), this.scale);
  }

  isPrimary(acc: string): boolean {
    const code = encodeAccession(acc);
    return code >= 0 && this.hasPrimaryCode(code);
  }

  lookup(acc: string): LookupResult {
    const code = encodeAccession(acc);
    if (code < 0) return UNKNOWN;
    // An accession that is primary in this release wins over any secondary use of it
    // (it happens when an entry was split: the old accession stays on one part).
    if (this.hasPrimaryCode(code)) return PRIMARY;
    const { codes, starts, targets } = this.secondaries;
    const at = findSorted(codes, code);
    if (at < 0) return UNKNOWN;
    const primaries: string[] = [];
    for (let i = starts[at]; i < starts[at + 1]; i++) primaries.push(decodeAccession(targets[i]));
    return { status: 'secondary', primaries };
  }
}

/** Loads an index written by `metaserver uniprot build` (see index-file.ts for the format). */
export function loadUniprotIndex(path: string, options: ReadOptions = {}): UniprotIndex {
  return new UniprotIndex(readIndexFile(path, options));
}

/** Wraps tables already in memory (built, or received from another thread). */
export function uniprotIndexFrom(contents: IndexContents): UniprotIndex {
  return new UniprotIndex(contents);
}

export type { IndexContents, ReadOptions };
