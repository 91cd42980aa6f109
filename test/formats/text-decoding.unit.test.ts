// Bytes to text, strictly (src/formats/text-decoding.ts): XML in the encoding it declares,
// text in UTF-8 (or UTF-16 with a byte-order mark), and everything else refused naming the
// file, the offset of the first bad byte and the encoding it likely is — never a text of
// U+FFFD. The real article is PLOS ONE's pone.0008915 transcoded by iconv
// (test/support/transcoded-article.ts).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/formats/common.ts';
import { jatsToText } from '../../src/formats/jats.ts';
import { decodeText, decodeXml } from '../../src/formats/text-decoding.ts';
import { firstHighByte, toWindows1252, utf8Article, windows1252Article } from '../support/transcoded-article.ts';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('decodeXml', () => {
  const original = jatsToText(utf8Article()).text;

  it('reads a real article declared windows-1252 or ISO-8859-1 to the same text as its UTF-8 original', () => {
    for (const declared of ['windows-1252', 'ISO-8859-1', 'latin1']) {
      const xml = decodeXml(windows1252Article(declared), 'pone.0008915.nxml');
      expect(jatsToText(xml).text).toBe(original);
    }
    // The characters where windows-1252 and ISO-8859-1 differ are the Windows ones (Node 20's decoder gives C1 controls).
    expect(original).toMatch(/[“”–—]/);
    expect(original).not.toMatch(/[\u0080-\u009f]/);
  });

  it('reads UTF-16 with a byte-order mark, little- and big-endian', () => {
    const xml = utf8Article().replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const bytes of [le, be]) expect(jatsToText(decodeXml(bytes, 'a.nxml')).text).toBe(original);
    // Without the mark, "<?" written in UTF-16 says which (XML 1.0, appendix F).
    expect(jatsToText(decodeXml(le.subarray(2), 'a.nxml')).text).toBe(original);
  });

  it('refuses undeclared or wrongly declared non-UTF-8 bytes, naming the file, the first bad byte and the likely encoding', () => {
    const undeclared = windows1252Article(undefined);
    const message = refusal(() => decodeXml(undeclared, 'pone.0008915.nxml'));
    expect(message).toContain('pone.0008915.nxml is not UTF-8 (it declares no encoding');
    expect(message).toContain(`at offset ${firstHighByte(undeclared)} `);
    expect(message).toMatch(/looks like windows-1252/);
    expect(message).toMatch(/encoding="windows-1252"/);
    const lying = windows1252Article('UTF-8');
    expect(refusal(() => decodeXml(lying, 'x.xml'))).toMatch(/x\.xml is not UTF-8 \(its XML declaration says encoding="UTF-8"\): byte 0x/);
  });

  it('refuses an encoding no decoder knows, UTF-16 declared over 8-bit bytes, and compressed content', () => {
    expect(refusal(() => decodeXml(Buffer.from('<?xml version="1.0" encoding="x-unknown"?><a/>'), 'a.xml'))).toMatch(
      /a\.xml: its XML declaration says encoding="x-unknown", which no decoder here knows/,
    );
    expect(refusal(() => decodeXml(Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a/>'), 'b.xml'))).toMatch(/not UTF-16/);
    expect(refusal(() => decodeXml(gzipSync(utf8Article()), 'c.xml'))).toBe(
      'encoding: c.xml holds gzip-compressed data, not XML; decompress it first',
    );
  });

  it('takes the charset given beside the XML when it declares none', () => {
    const xml = decodeXml(toWindows1252('<a>Ménière</a>'), 'body', 'ISO-8859-1');
    expect(xml).toBe('<a>Ménière</a>');
  });
});

describe('decodeText', () => {
  // The real article's text (U+200A written as a space, which windows-1252 has), as a .txt.
  const text = jatsToText(utf8Article()).text.replace(/\u200a/g, ' ');

  it('reads UTF-8, dropping a byte-order mark, and UTF-16 with one', () => {
    expect(decodeText(Buffer.from(`\ufeff${text}`), 'a.txt')).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'a.txt')).toBe(text);
  });

  it('refuses UTF-16 without a byte-order mark rather than read it on a guess', () => {
    expect(refusal(() => decodeText(Buffer.from(text, 'utf16le'), 'a.txt'))).toMatch(
      /a\.txt looks like UTF-16LE without a byte-order mark; save it as UTF-8/,
    );
  });

  it('refuses windows-1252 text naming the offset and line of the first bad byte', () => {
    const bytes = toWindows1252(text);
    const offset = firstHighByte(bytes);
    const line = text.slice(0, text.indexOf([...text].find((c) => c.charCodeAt(0) > 0x7f)!)).split('\n').length;
    expect(refusal(() => decodeText(bytes, 'article.txt'))).toMatch(
      new RegExp(`article\\.txt is not UTF-8 .*: byte 0x[0-9A-F]{2} at offset ${offset} \\(line ${line}\\).*looks like windows-1252`),
    );
  });

  it('says when UTF-8 text has a piece in another encoding pasted in (two files joined)', () => {
    const piece = toWindows1252(text);
    const joined = Buffer.concat([Buffer.from(text), piece]);
    expect(refusal(() => decodeText(joined, 'joined.txt'))).toMatch(
      new RegExp(`offset ${Buffer.byteLength(text) + firstHighByte(piece)} .*UTF-8 with a piece in another encoding`),
    );
  });

  it('refuses compressed, archived and binary content as what it is', () => {
    expect(refusal(() => decodeText(gzipSync(text), 'a.txt'))).toMatch(/a\.txt holds gzip-compressed data, not text/);
    expect(refusal(() => decodeText(Buffer.from('%PDF-1.4\n'), 'b.txt'))).toMatch(/a PDF document/);
    expect(refusal(() => decodeText(Buffer.from([0x41, 0x00, 0x00, 0x07, 0xff]), 'c.txt'))).toMatch(
      /binary data \(a NUL byte at offset 1\)/,
    );
  });
});
