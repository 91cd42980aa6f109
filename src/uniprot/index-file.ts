// The on-disk index: written once by `metaserver uniprot build`, loaded by every process
// that validates answers. A section file (src/shared/section-file.ts) with the magic
// "MSUPIDX\n", version 1, a JSON header of release, counts and bucketBits, and the sections
// directory (u32), remainders (u32), secondary codes (f64), secondary starts (u32) and
// secondary targets (f64). A 250M-accession index (~1.1 GB) loads at disk/page-cache speed.

import { parseSectionFile, readWholeFile, writeSectionFile, type ReadOptions, type SectionFileFormat } from '../shared/section-file.ts';
import type { PrimaryTables, SecondaryTables } from './tables.ts';

export type { ReadOptions } from '../shared/section-file.ts';

const FORMAT: SectionFileFormat = {
  magic: Buffer.from('MSUPIDX\n', 'latin1'),
  version: 1,
  name: 'UniProt index',
  rebuild: 'rebuild it with "metaserver uniprot build"',
};

export interface ReleaseInfo {
  name: string;
  date?: string;
}

export interface IndexContents {
  release: ReleaseInfo;
  primaries: PrimaryTables;
  secondaries: SecondaryTables;
}

interface Header {
  release: ReleaseInfo;
  primaryCount: number;
  secondaryCount: number;
  bucketBits: number;
}

/** Writes the index to `path` (through a temporary file, so a crash leaves no half file). */
export function writeIndexFile(path: string, contents: IndexContents): number {
  const header: Header = {
    release: contents.release,
    primaryCount: contents.primaries.remainders.length,
    secondaryCount: contents.secondaries.codes.length,
    bucketBits: contents.primaries.bucketBits,
  };
  return writeSectionFile(
    path,
    FORMAT,
    { ...header },
    {
      directory: contents.primaries.directory,
      remainders: contents.primaries.remainders,
      secCodes: contents.secondaries.codes,
      secStarts: contents.secondaries.starts,
      secTargets: contents.secondaries.targets,
    },
  );
}

/** Reads an index file whole and returns views over it. */
export function readIndexFile(path: string, options: ReadOptions = {}): IndexContents {
  return parseIndex(readWholeFile(path, FORMAT, options), path);
}

/** Lays the views over an index already in memory (e.g. a SharedArrayBuffer from another thread). */
function parseIndex(memory: ArrayBuffer | SharedArrayBuffer, label = 'index'): IndexContents {
  const file = parseSectionFile<Header>(memory, FORMAT, label);
  const u32 = (name: string) => file.view(name, (o, n) => new Uint32Array(memory, o, n), 4);
  const f64 = (name: string) => file.view(name, (o, n) => new Float64Array(memory, o, n), 8);
  return {
    release: file.header.release,
    primaries: { bucketBits: file.header.bucketBits, directory: u32('directory'), remainders: u32('remainders') },
    secondaries: { codes: f64('secCodes'), starts: u32('secStarts'), targets: f64('secTargets') },
  };
}
