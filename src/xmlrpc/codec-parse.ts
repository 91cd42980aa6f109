// The XML layer under the decoder: bytes to text, and a `saxes` parser (strict, never
// fetches or expands DTD entities) set up to refuse what XML-RPC never needs. Refused
// here: anything that is not well-formed XML, any DOCTYPE (the usual carrier of
// entity-expansion and external-entity attacks), and encodings other than UTF-8/Latin-1.
// Surrogate pair references (Java's way of writing characters outside the BMP) are joined
// before parsing, see codec-charrefs.ts.
import { SaxesParser } from 'saxes';
import { joinSurrogateReferences } from './codec-charrefs.ts';
import { XmlRpcProtocolError } from './errors.ts';
import { strictUtf8 } from '../shared/utf8.ts';

export const MAX_VALUE_DEPTH = 64;

function excerpt(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

const UTF8_NAMES = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);
const LATIN1_NAMES = new Set(['iso-8859-1', 'latin1', 'latin-1', 'iso_8859-1']);

/**
 * Bytes to text. The XML declaration names the encoding; when it names none, the charset of
 * the HTTP Content-Type does (some servers say ISO-8859-1 there only); else UTF-8.
 */
function decodeBytes(input: Buffer, headerCharset: string | undefined): string {
  // Only the prologue names the encoding; it is ASCII in every encoding we accept.
  const head = input.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  const header = headerCharset?.trim().replace(/^"|"$/g, '').toLowerCase();
  const encoding = declared ?? header;
  const source = declared !== undefined ? 'the XML declares' : 'the Content-Type header names';
  if (encoding === undefined || UTF8_NAMES.has(encoding)) {
    const text = strictUtf8(input);
    if (text !== null) return text;
    const why = encoding === undefined ? 'and declares no other encoding' : `as ${source} ${encoding}`;
    throw new XmlRpcProtocolError(`the answer is not valid UTF-8 (${why}); send UTF-8 XML`);
  }
  if (LATIN1_NAMES.has(encoding)) return input.toString('latin1');
  throw new XmlRpcProtocolError(`${source} the encoding "${encoding}", which is not supported; send UTF-8`);
}

/**
 * The document as text, ready for the parser: decoded, without a byte-order mark or
 * leading whitespace (a common slip before `<?xml`, harmless to forgive). Throws when it
 * is empty or plainly not XML, with the first characters shown.
 */
export function prepareDocument(input: string | Buffer, headerCharset?: string): string {
  const text = (typeof input === 'string' ? input : decodeBytes(input, headerCharset)).replace(/^\uFEFF/, '').trimStart();
  if (text.length === 0) throw new XmlRpcProtocolError('the answer is empty, not an XML-RPC document');
  if (!text.startsWith('<')) throw new XmlRpcProtocolError(`the answer is not XML: it starts with "${excerpt(text)}"`);
  return joinSurrogateReferences(text);
}

/** "line 3, column 14": where the parser is now (columns counted from 1). */
export function positionOf(parser: SaxesParser): string {
  return `line ${parser.line}, column ${parser.column + 1}`;
}

/** A parser that throws XmlRpcProtocolError for malformed XML and for any DOCTYPE. */
export function createStrictParser(): SaxesParser {
  const parser = new SaxesParser({ position: true });
  parser.on('doctype', (doctype) => {
    if (/^\s*html\b/i.test(doctype)) throw new XmlRpcProtocolError('the answer is an HTML page, not an XML-RPC document');
    throw new XmlRpcProtocolError(
      `the answer contains a DOCTYPE declaration (at ${positionOf(parser)}); XML-RPC documents must not have one (refused for safety: entity expansion, external entities)`,
    );
  });
  parser.on('error', (err) => {
    const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+:\s*/, '');
    throw new XmlRpcProtocolError(`malformed XML at ${positionOf(parser)}: ${message}`, { cause: err });
  });
  return parser;
}

/** Feeds the whole document; every failure comes out as XmlRpcProtocolError. */
export function runParser(parser: SaxesParser, text: string): void {
  try {
    parser.write(text).close();
  } catch (err) {
    if (err instanceof XmlRpcProtocolError) throw err;
    throw new XmlRpcProtocolError(`malformed XML at ${positionOf(parser)}: ${(err as Error).message}`, { cause: err });
  }
}
