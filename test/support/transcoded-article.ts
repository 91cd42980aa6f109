// A real article in the encodings organisers' files come in: PLOS ONE's pone.0008915
// (test/fixtures/jats/formulas, CC BY) holds ä, ç, ü, curly quotes and dashes, all of them
// windows-1252 characters. Its four HAIR SPACEs (U+200A) are not, so they are written as
// the character reference &#x200A; first (the same XML); then iconv turns the file into
// windows-1252 bytes. The bytes 0x93/0x94 (quotes) and 0x96/0x97 (dashes) are where
// windows-1252 and ISO-8859-1 differ.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ARTICLE_FILE = join(import.meta.dirname, '..', 'fixtures', 'jats', 'formulas', 'pone.0008915.nxml');

/** The article as it is distributed: UTF-8, declared so. */
export const utf8Article = (): string => readFileSync(ARTICLE_FILE, 'utf8');

/** Text in UTF-8 transcoded by iconv into windows-1252 bytes. */
export const toWindows1252 = (text: string): Buffer => execFileSync('iconv', ['-f', 'UTF-8', '-t', 'WINDOWS-1252'], { input: text });

/** The article as windows-1252 bytes, its declaration saying `declaration` (undefined: a declaration naming no encoding). */
export function windows1252Article(declaration: string | undefined): Buffer {
  const xml = utf8Article().replace(/\u200a/g, '&#x200A;');
  const head = declaration === undefined ? '<?xml version="1.0"?>' : `<?xml version="1.0" encoding="${declaration}"?>`;
  return toWindows1252(xml.replace('<?xml version="1.0" encoding="UTF-8"?>', head));
}

/** The offset of the first byte that is not ASCII: where a strict UTF-8 reader of windows-1252 bytes stops. */
export const firstHighByte = (bytes: Buffer): number => bytes.findIndex((b) => b >= 0x80);
