// Looking accessions up in a loaded UniProt release: the interface validation depends on,
// and its implementation over the compact tables of tables.ts.

import { decodeAccession, encodeAccession } from './codec.ts';
import { readIndexFile, type IndexContents, type ReadOptions, type ReleaseInfo } from './index-file.ts';
import { KEY_BITS, scrambleCode } from './keys.ts';
import { findSorted } from '../shared/sorted.ts';
import { hasKey, hasKeys, type PrimaryTables, type SecondaryTables } from './tables.ts';

export type { ReleaseInfo } from './index-file.ts';

export type LookupResult = { status: 'primary' } | { status: 'secondary'; primaries: string[] } | { status: 'unknown' };

export interface AccessionLookup {
  release: { name: string; date?: string; primaries: number; secondaries: number };
  /** A string that is not an accession at all is simply 'unknown'. */
  lookup(acc: string): LookupResult;
  /**
   * The same answers as `lookup` for many accessions at once (results[i] for accs[i]),
   * faster for big releases: the memory accesses of several lookups overlap.
   */
  lookupMany?(accs: readonly string[]): LookupResult[];
}

/** `lookupMany` when the release has it, else `lookup` one by one. */
export function lookupAll(lookup: AccessionLookup, accs: readonly string[]): LookupResult[] {
  return lookup.lookupMany ? lookup.lookupMany(accs) : accs.map((acc) => lookup.lookup(acc));
}

const PRIMARY: LookupResult = { status: 'primary' };
const UNKNOWN: LookupResult = { status: 'unknown' };
/** Batched lookups work through their input this many at a time (bounded scratch space). */
const BATCH = 1024;

export class UniprotIndex implements AccessionLookup {
  readonly release: AccessionLookup['release'];
  private readonly primaries: PrimaryTables;
  private readonly secondaries: SecondaryTables;
  private readonly scale: number;
  /** Scratch space of the batched lookups (they work through BATCH accessions at a time). */
  private readonly batchCodes = new Float64Array(BATCH);
  private readonly batchKeys = new Float64Array(BATCH);
  private readonly batchFound = new Uint8Array(BATCH);

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

  /**
   * Batched `hasPrimaryCode`: out[i] = 1 when codes[i] is a primary accession, else 0,
   * for i < count (default: all codes). A negative code (not an accession) answers 0.
   */
  hasPrimaryCodes(codes: Float64Array, out: Uint8Array, count = codes.length): void {
    if (out.length < count || codes.length < count) throw new RangeError('hasPrimaryCodes: arrays shorter than count');
    const keys = this.batchKeys;
    for (let start = 0; start < count; start += BATCH) {
      const size = Math.min(BATCH, count - start);
      for (let i = 0; i < size; i++) {
        const code = codes[start + i];
        keys[i] = code >= 0 ? scrambleCode(code) : -1;
      }
      hasKeys(this.primaries, keys, start === 0 ? out : out.subarray(start), size, this.scale);
    }
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
    return this.secondaryLookup(code);
  }

  lookupMany(accs: readonly string[]): LookupResult[] {
    const results = new Array<LookupResult>(accs.length);
    const codes = this.batchCodes;
    const found = this.batchFound;
    for (let start = 0; start < accs.length; start += BATCH) {
      const size = Math.min(BATCH, accs.length - start);
      for (let i = 0; i < size; i++) codes[i] = encodeAccession(accs[start + i]);
      this.hasPrimaryCodes(codes, found, size);
      for (let i = 0; i < size; i++) {
        results[start + i] = found[i] === 1 ? PRIMARY : codes[i] < 0 ? UNKNOWN : this.secondaryLookup(codes[i]);
      }
    }
    return results;
  }

  /** The answer for a well-formed code that is not primary. */
  private secondaryLookup(code: number): LookupResult {
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

export type { IndexContents, ReadOptions };
