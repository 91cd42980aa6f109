// Bytes to text for the files and bodies articles come in as, strictly: a lenient decoder
// turns every byte it cannot read into U+FFFD, and an article of replacement characters
// (or of gzip noise) would be stored and sent without a word. Pure: bytes in, a string or
// a FormatError out (format `encoding`), every refusal naming the input, where it went
// wrong and what to do.
//
// - Text (`decodeText`: plain text, PubTator, JSON): UTF-8, or UTF-16 when a byte-order
//   mark says so. Nothing inside says otherwise, so any other bytes are refused, with the
//   offset of the first bad byte and the encoding it most likely is.
// - XML (`decodeXml`): a byte-order mark, else the declaration's `encoding=`, else the
//   charset given beside it (an HTTP Content-Type), else UTF-8 — the order the XML-RPC
//   codec follows. Any encoding of the WHATWG Encoding Standard is read (Node's
//   TextDecoder: UTF-8, UTF-16, ISO-8859-1 and windows-1252, the other single-byte ones,
//   Shift_JIS, GBK…). ISO-8859-1 is read as windows-1252, its superset, as browsers do.
// - Compressed, archived or binary content is refused as what it is before any decoding.
import { strictUtf8 } from '../shared/utf8.ts';
import { FormatError } from './common.ts';

/** Signatures of content that is not text, what to call it, and where it starts. */
const SIGNATURES: ReadonlyArray<{ bytes: number[]; at?: number; what: string }> = [
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed data' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x42, 0x5a, 0x68], what: 'bzip2-compressed data' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Microsoft Office document' },
  { bytes: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257, what: 'a tar archive' },
];

/** How far into the input binary content is looked for (a NUL byte). */
const SNIFF_BYTES = 8192;

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

/** UTF-16 without a byte-order mark: text whose every other byte is NUL (ASCII characters). */
function bomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length, 512) & ~1;
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul += 1;
    if (bytes[i + 1] === 0) oddNul += 1;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.1) return 'utf-16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.1) return 'utf-16be';
  return undefined;
}

/** What the bytes are when they are not text at all (compressed, an archive, an image, binary), else undefined. */
export function binaryContent(bytes: Uint8Array): string | undefined {
  const signature = SIGNATURES.find((s) => startsWith(bytes, s.bytes, s.at));
  if (signature) return signature.what;
  if (byteOrderMark(bytes) !== undefined || bomlessUtf16(bytes) !== undefined) return undefined;
  const nul = bytes.subarray(0, SNIFF_BYTES).indexOf(0);
  return nul === -1 ? undefined : `binary data (a NUL byte at offset ${nul})`;
}

function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', length: 3 };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', length: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence, or -1. */
function firstBadUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    const second = bytes[i + 1];
    // The second byte's narrower ranges rule out overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k += 1) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
    i += length;
  }
  return -1;
}

/** Bytes windows-1252 gives printable characters (quotes, dashes, €) where ISO-8859-1 has C1 controls. */
const isWindowsPunctuation = (b: number) => b >= 0x80 && b <= 0x9f && ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b);

/** "line 3": the line of a byte offset (LF-counted; the same in every ASCII-compatible encoding). */
const lineOf = (bytes: Uint8Array, offset: number) => bytes.subarray(0, offset).filter((b) => b === 0x0a).length + 1;

/** The encoding the bytes most likely are, for the message that refuses them, and the label to convert them from. */
function likelyEncoding(bytes: Uint8Array, offset: number): { words: string; label?: string; advice?: string } {
  // UTF-8 characters before the bad byte: a UTF-8 file with pieces in another encoding pasted in.
  if (/[^\x00-\x7f]/.test(strictUtf8(bytes.subarray(0, offset)) ?? ''))
    return {
      words: 'UTF-8 with a piece in another encoding (files joined?)',
      advice: 'The text before it is UTF-8: write that piece in UTF-8 too',
    };
  let high = 0;
  let paired = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] < 0x80) continue;
    high += 1;
    if (bytes[i - 1] >= 0x80 || bytes[i + 1] >= 0x80) paired += 1;
  }
  // Latin-1 and windows-1252 accents stand alone between ASCII letters; double-byte encodings come in pairs.
  if (paired > high / 2)
    return {
      words: 'a double-byte encoding (Shift_JIS, GBK, EUC-KR…)',
      advice: 'Convert the file to UTF-8 from its encoding (iconv -f ENCODING -t UTF-8)',
    };
  if (bytes.some(isWindowsPunctuation)) return { words: 'windows-1252', label: 'windows-1252' };
  return { words: 'Latin-1 (ISO-8859-1) or windows-1252', label: 'windows-1252' };
}

/** The refusal of bytes that are not UTF-8: where, which byte, what it would be, what to do. */
function notUtf8(bytes: Uint8Array, file: string, why: string, xml: boolean): FormatError {
  const offset = firstBadUtf8Byte(bytes);
  const hex = `0x${bytes[offset].toString(16).toUpperCase().padStart(2, '0')}`;
  const likely = likelyEncoding(bytes, offset);
  const where = `byte ${hex} at offset ${offset} (line ${lineOf(bytes, offset)}) is not part of a UTF-8 character`;
  const { label } = likely;
  const shown = label ? `, where that byte is "${windows1252(bytes.subarray(offset, offset + 1))}"` : '';
  const declare = xml && label ? `, or name its encoding in the XML declaration (<?xml version="1.0" encoding="${label}"?>)` : '';
  const advice = likely.advice ?? `Convert the file to UTF-8 (iconv -f ${label!.toUpperCase()} -t UTF-8)${declare}`;
  return new FormatError('encoding', `${file} is not UTF-8 (${why}): ${where}; it looks like ${likely.words}${shown}. ${advice}`);
}

function refuseBinary(bytes: Uint8Array, file: string, expected: string): void {
  const binary = binaryContent(bytes);
  if (binary === undefined) return;
  const hint = binary.includes('compressed') ? '; decompress it first' : '';
  throw new FormatError('encoding', `${file} holds ${binary}, not ${expected}${hint}`);
}

/**
 * windows-1252's characters for the bytes 0x80–0x9F (the five it leaves undefined stay the
 * C1 controls, as WHATWG says). Node 20's TextDecoder reads 'windows-1252' (and so
 * 'latin1', 'iso-8859-1') as ISO-8859-1, which gives C1 controls where a Windows file has
 * its quotes, dashes and the euro sign; this table puts them right.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(bytes: Uint8Array): string {
  let text = '';
  // In pieces: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text.replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/** Decodes strictly; a decoder that meets a byte it cannot read throws a TypeError. */
function strictly(bytes: Uint8Array, encoding: string): string | undefined {
  if (encoding === 'windows-1252') return windows1252(bytes);
  if (encoding === 'utf-8') return strictUtf8(bytes) ?? undefined;
  // Any other encoding a declaration names (UTF-16, Shift_JIS, …), as strictly.
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch (err) {
    if (err instanceof TypeError) return undefined;
    throw err;
  }
}

/**
 * Plain text, PubTator or JSON: UTF-8 (a leading byte-order mark dropped) or UTF-16 with a
 * byte-order mark; anything else is refused. `file` names the input in the message.
 */
export function decodeText(bytes: Uint8Array, file: string): string {
  refuseBinary(bytes, file, 'text');
  const bom = byteOrderMark(bytes);
  if (bom?.encoding.startsWith('utf-16')) {
    const text = strictly(bytes, bom.encoding);
    if (text === undefined) throw new FormatError('encoding', `${file} is not valid ${bom.encoding.toUpperCase()}; save it as UTF-8`);
    return text;
  }
  // Without a byte-order mark, UTF-16 is only a guess: refused, saying so, rather than read on a guess.
  const guess = bomlessUtf16(bytes);
  if (guess !== undefined)
    throw new FormatError(
      'encoding',
      `${file} looks like ${guess.toUpperCase()} without a byte-order mark; save it as UTF-8 (or UTF-16 with a byte-order mark)`,
    );
  const text = strictly(bytes, 'utf-8');
  if (text === undefined) throw notUtf8(bytes, file, 'a text file must be', false);
  return text;
}

/** The declaration's `encoding=`, read from the bytes as ASCII (it is ASCII in every ASCII-compatible encoding). */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = String.fromCharCode(...bytes.subarray(0, 256));
  return /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/.exec(head)?.[1];
}

/** The WHATWG name of an encoding label (`latin1` → `windows-1252`), or undefined when no decoder knows it. */
function encodingName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Which encoding the XML is in and who said so: a byte-order mark, the declaration, the charset beside it, or nobody (UTF-8). */
function xmlEncoding(bytes: Uint8Array, file: string, charset: string | undefined): { encoding: string; source?: string } {
  const bom = byteOrderMark(bytes);
  if (bom) return { encoding: bom.encoding, source: 'its byte-order mark says' };
  // UTF-16 without a mark shows itself by how "<?" is written (XML 1.0, appendix F).
  if (startsWith(bytes, [0x3c, 0x00, 0x3f, 0x00])) return { encoding: 'utf-16le', source: 'its first bytes show' };
  if (startsWith(bytes, [0x00, 0x3c, 0x00, 0x3f])) return { encoding: 'utf-16be', source: 'its first bytes show' };
  const declared = declaredEncoding(bytes);
  const label = declared ?? charset?.trim().replace(/^"|"$/g, '');
  if (label === undefined || label === '') return { encoding: 'utf-8' };
  const source = declared !== undefined ? `its XML declaration says encoding="${label}"` : `the charset given with it is "${label}"`;
  // US-ASCII is UTF-8's first half; WHATWG would read it as windows-1252 and let any byte through.
  const name = /^(us-)?ascii$/i.test(label) ? 'utf-8' : encodingName(label);
  if (name === undefined)
    throw new FormatError(
      'encoding',
      `${file}: ${source}, which no decoder here knows; convert the file to UTF-8 and declare encoding="UTF-8"`,
    );
  if (name.startsWith('utf-16'))
    // The declaration was just read as ASCII, so the bytes cannot be UTF-16.
    throw new FormatError(
      'encoding',
      `${file}: ${source}, but it has no byte-order mark and its bytes are not UTF-16; fix the declaration`,
    );
  return { encoding: name, source };
}

/**
 * XML text in the encoding its byte-order mark or declaration names (else `charset`, the one
 * given beside it, else UTF-8), decoded strictly; content that is not text, bytes the
 * encoding cannot have, and encodings no decoder knows are refused naming `file`.
 */
export function decodeXml(bytes: Uint8Array, file: string, charset?: string): string {
  refuseBinary(bytes, file, 'XML');
  const { encoding, source } = xmlEncoding(bytes, file, charset);
  const text = strictly(bytes, encoding);
  if (text !== undefined) return text;
  if (encoding === 'utf-8') throw notUtf8(bytes, file, source ?? 'it declares no encoding, so it must be', true);
  throw new FormatError('encoding', `${file} is not valid ${encoding} (${source}); fix the declaration or convert the file to UTF-8`);
}
