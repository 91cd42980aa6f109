// Files of typed arrays behind a JSON header, written once and loaded as views over one
// buffer: no per-entry parsing, so a big release index loads at disk/page-cache speed. The
// UniProt release index (src/uniprot/index-file.ts) and the families' release indexes use
// it.
//
// Layout (little-endian):
//   0   8 bytes  magic (the format's own)
//   8   u32      format version
//   12  u32      length of the JSON header in bytes
//   16  JSON     header: the format's fields, then `sections`: each one's byte offset/length
//   ..  sections, each 8-byte aligned, in the order given
//
// Node has no mmap, so each process holds its own copy; `shared: true` reads into a
// SharedArrayBuffer that worker threads can receive without copying.

import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';

/** fs read/write calls refuse more than 2 GiB at once. */
const CHUNK = 1 << 30;

export interface SectionFileFormat {
  /** 8 bytes. */
  magic: Buffer;
  version: number;
  /** In messages: `UniProt index`. */
  name: string;
  /** In messages: `rebuild it with "metaserver uniprot build"`. */
  rebuild: string;
}

export interface Section {
  offset: number;
  length: number;
}

export interface ReadOptions {
  /** Read into a SharedArrayBuffer (to hand to worker threads without copying). */
  shared?: boolean;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

function assertLittleEndian(format: SectionFileFormat): void {
  if (endianness() !== 'LE') throw new Error(`${format.name} files are little-endian; this machine is big-endian`);
}

/**
 * Writes `fields` and the arrays to `path` (through a temporary file, so a crash leaves no
 * half file); returns the file's size.
 */
export function writeSectionFile(
  path: string,
  format: SectionFileFormat,
  fields: Record<string, unknown>,
  arrays: Record<string, ArrayBufferView>,
): number {
  assertLittleEndian(format);
  const names = Object.keys(arrays);
  // The header holds the section offsets, which depend on the header's length: reserve
  // generous room for the numbers, then pad.
  const draft = (sections: Record<string, Section>): Buffer => Buffer.from(JSON.stringify({ ...fields, sections }));
  const placeholder = { offset: 1e15, length: 1e15 };
  const reserved = draft(Object.fromEntries(names.map((name) => [name, placeholder]))).length;
  let offset = align8(16 + reserved);
  const sections: Record<string, Section> = {};
  for (const name of names) {
    sections[name] = { offset, length: arrays[name].byteLength };
    offset = align8(offset + arrays[name].byteLength);
  }
  const header = draft(sections);
  const preamble = Buffer.alloc(align8(16 + reserved));
  format.magic.copy(preamble, 0);
  preamble.writeUInt32LE(format.version, 8);
  preamble.writeUInt32LE(header.length, 12);
  header.copy(preamble, 16);

  const temporary = `${path}.partial-${process.pid}`;
  const fd = openSync(temporary, 'w');
  try {
    let position = 0;
    const put = (bytes: Uint8Array): void => {
      for (let done = 0; done < bytes.length;) {
        const n = writeSync(fd, bytes, done, Math.min(CHUNK, bytes.length - done), position);
        done += n;
        position += n;
      }
    };
    put(preamble);
    for (const name of names) {
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

/** Reads a whole file into one buffer. */
export function readWholeFile(path: string, format: SectionFileFormat, options: ReadOptions = {}): ArrayBuffer | SharedArrayBuffer {
  assertLittleEndian(format);
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const memory = options.shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    const bytes = new Uint8Array(memory);
    for (let done = 0; done < size;) {
      const n = readSync(fd, bytes, done, Math.min(CHUNK, size - done), done);
      if (n === 0) throw new Error(`${path}: file ended after ${done} of ${size} bytes`);
      done += n;
    }
    return memory;
  } finally {
    closeSync(fd);
  }
}

export interface SectionFile<H> {
  /** The header's fields (and `sections`). */
  header: H & { sections: Record<string, Section> };
  /** A view over a section: `make(offset, element count)`, `width` bytes an element. */
  view<T>(name: string, make: (offset: number, count: number) => T, width: number): T;
}

/** Checks the magic and version and reads the header of a file already in memory. */
export function parseSectionFile<H>(memory: ArrayBuffer | SharedArrayBuffer, format: SectionFileFormat, label: string): SectionFile<H> {
  const bytes = Buffer.from(memory);
  if (bytes.length < 16 || !bytes.subarray(0, 8).equals(format.magic)) {
    throw new Error(`${label} is not a metaserver ${format.name} (bad magic); ${format.rebuild}`);
  }
  const version = bytes.readUInt32LE(8);
  if (version !== format.version)
    throw new Error(`${label} has index format version ${version}, this program reads ${format.version}; ${format.rebuild}`);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8')) as SectionFile<H>['header'];
  return {
    header,
    view(name, make, width) {
      const section = header.sections[name];
      if (!section || section.offset + section.length > bytes.length)
        throw new Error(`${label} is truncated (section ${name}); ${format.rebuild}`);
      return make(section.offset, section.length / width);
    },
  };
}
