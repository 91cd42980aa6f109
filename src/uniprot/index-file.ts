// The on-disk index: written once by `metaserver uniprot build`, loaded by every process
// that validates answers.
//
// Layout (little-endian):
//   0   8 bytes  magic "MSUPIDX\n"
//   8   u32      format version (1)
//   12  u32      length of the JSON header in bytes
//   16  JSON     header: release, counts, bucketBits, and each section's byte offset/length
//   ..  sections, each 8-byte aligned: directory (u32), remainders (u32),
//       secondary codes (f64), secondary starts (u32), secondary targets (f64)
//
// Loading reads the file into one ArrayBuffer and lays typed-array views over it: no
// per-entry parsing, so a 250M-accession index (~1.1 GB) loads at disk/page-cache speed.
// Node has no mmap, so each process holds its own copy; passing `shared: true` reads
// into a SharedArrayBuffer that worker threads can receive without copying.

import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import type { PrimaryTables, SecondaryTables } from './tables.ts';

const MAGIC = Buffer.from('MSUPIDX\n', 'latin1');
const VERSION = 1;
/** fs read/write calls refuse more than 2 GiB at once. */
const CHUNK = 1 << 30;

export interface ReleaseInfo {
  name: string;
  date?: string;
}

export interface IndexContents {
  release: ReleaseInfo;
  primaries: PrimaryTables;
  secondaries: SecondaryTables;
}

interface Section {
  offset: number;
  length: number;
}

interface Header {
  release: ReleaseInfo;
  primaryCount: number;
  secondaryCount: number;
  bucketBits: number;
  sections: Record<'directory' | 'remainders' | 'secCodes' | 'secStarts' | 'secTargets', Section>;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

function assertLittleEndian(): void {
  if (endianness() !== 'LE') throw new Error('UniProt index files are little-endian; this machine is big-endian');
}

/** Writes the index to `path` (through a temporary file, so a crash leaves no half file). */
export function writeIndexFile(path: string, contents: IndexContents): number {
  assertLittleEndian();
  const arrays = {
    directory: contents.primaries.directory,
    remainders: contents.primaries.remainders,
    secCodes: contents.secondaries.codes,
    secStarts: contents.secondaries.starts,
    secTargets: contents.secondaries.targets,
  };
  // The header holds the section offsets, which depend on the header's length: reserve
  // generous room for the numbers, then pad.
  const draft = (sections: Header['sections']): Buffer =>
    Buffer.from(
      JSON.stringify({
        release: contents.release,
        primaryCount: contents.primaries.remainders.length,
        secondaryCount: contents.secondaries.codes.length,
        bucketBits: contents.primaries.bucketBits,
        sections,
      } satisfies Header),
    );
  const placeholder = { offset: 1e15, length: 1e15 };
  const reserved = draft({ directory: placeholder, remainders: placeholder, secCodes: placeholder, secStarts: placeholder, secTargets: placeholder }).length;
  let offset = align8(16 + reserved);
  const sections = {} as Header['sections'];
  for (const [name, array] of Object.entries(arrays) as [keyof typeof arrays, ArrayBufferView][]) {
    sections[name] = { offset, length: array.byteLength };
    offset = align8(offset + array.byteLength);
  }
  const header = draft(sections);
  const preamble = Buffer.alloc(align8(16 + reserved));
  MAGIC.copy(preamble, 0);
  preamble.writeUInt32LE(VERSION, 8);
  preamble.writeUInt32LE(header.length, 12);
  header.copy(preamble, 16);

  const temporary = `${path}.partial-${process.pid}`;
  const fd = openSync(temporary, 'w');
  try {
    let position = 0;
    const put = (bytes: Uint8Array): void => {
      for (let done = 0; done < bytes.length; ) {
        const n = writeSync(fd, bytes, done, Math.min(CHUNK, bytes.length - done), position);
        done += n;
        position += n;
      }
    };
    put(preamble);
    for (const name of Object.keys(arrays) as (keyof typeof arrays)[]) {
      const array = arrays[name];
      put(Buffer.alloc(sections[name].offset - position));
      put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  return offset;
}

export interface ReadOptions {
  /** Read into a SharedArrayBuffer (to hand to worker threads without copying). */
  shared?: boolean;
}

/** Reads an index file whole and returns views over it. */
export function readIndexFile(path: string, options: ReadOptions = {}): IndexContents {
  assertLittleEndian();
  const fd = openSync(path, 'r');
  let memory: ArrayBuffer | SharedArrayBuffer;
  try {
    const size = fstatSync(fd).size;
    memory = options.shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    const bytes = new Uint8Array(memory);
    for (let done = 0; done < size; ) {
      const n = readSync(fd, bytes, done, Math.min(CHUNK, size - done), done);
      if (n === 0) throw new Error(`${path}: file ended after ${done} of ${size} bytes`);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  return parseIndex(memory, path);
}

/** Lays the views over an index already in memory (e.g. a SharedArrayBuffer from another thread). */
export function parseIndex(memory: ArrayBuffer | SharedArrayBuffer, label = 'index'): IndexContents {
  const bytes = Buffer.from(memory);
  const rebuild = `rebuild it with "metaserver uniprot build"`;
  if (bytes.length < 16 || !bytes.subarray(0, 8).equals(MAGIC)) {
    throw new Error(`${label} is not a metaserver UniProt index (bad magic); ${rebuild}`);
  }
  const version = bytes.readUInt32LE(8);
  if (version !== VERSION) throw new Error(`${label} has index format version ${version}, this program reads ${VERSION}; ${rebuild}`);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8')) as Header;
  const view = <T>(name: keyof Header['sections'], make: (offset: number, length: number) => T, width: number): T => {
    const { offset, length } = header.sections[name];
    if (offset + length > bytes.length) throw new Error(`${label} is truncated (section ${name}); ${rebuild}`);
    return make(offset, length / width);
  };
  return {
    release: header.release,
    primaries: {
      bucketBits: header.bucketBits,
      directory: view('directory', (o, n) => new Uint32Array(memory, o, n), 4),
      remainders: view('remainders', (o, n) => new Uint32Array(memory, o, n), 4),
    },
    secondaries: {
      codes: view('secCodes', (o, n) => new Float64Array(memory, o, n), 8),
      starts: view('secStarts', (o, n) => new Uint32Array(memory, o, n), 4),
      targets: view('secTargets', (o, n) => new Float64Array(memory, o, n), 8),
    },
  };
}
