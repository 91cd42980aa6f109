// Character references to UTF-16 surrogates. Java's XML writers (Apache XML-RPC among
// them) write a character outside the BMP as two references, one per UTF-16 unit
// (`&#55349;&#57084;` for U+1D6FC). XML forbids references to surrogates, so a strict
// parser refuses the whole answer; a high + low pair is read here as the one character it
// stands for. A lone half stands for no character at all and is refused, naming it.
import { XmlRpcProtocolError } from './errors.ts';

// What the scan stops at: a character reference, or the start of a CDATA section or a
// comment, which are skipped to their end (a reference there is text). Skipping with
// indexOf keeps the scan linear even when a section is never closed.
const NEXT = /&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));|<!\[CDATA\[|<!--/g;
const SECTION_END: Record<string, string> = { '<![CDATA[': ']]>', '<!--': '-->' };

const isHigh = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdbff;
const isLow = (cp: number): boolean => cp >= 0xdc00 && cp <= 0xdfff;

function referenced(match: RegExpExecArray): number {
  return match[1] !== undefined ? parseInt(match[1], 16) : parseInt(match[2], 10);
}

function lineAndColumn(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The document with every high + low surrogate reference pair written as one reference to
 * the character; throws XmlRpcProtocolError for a surrogate reference without its other half.
 */
export function joinSurrogateReferences(text: string): string {
  if (!text.includes('&#')) return text;
  const pattern = new RegExp(NEXT.source, 'g');
  const parts: string[] = [];
  let copiedUpTo = 0;
  let pendingHigh: { cp: number; index: number; ref: string } | undefined;
  const lone = (cp: number, index: number, ref: string): never => {
    const half = isHigh(cp) ? 'high' : 'low';
    const other = isHigh(cp)
      ? 'a low half (a reference to U+DC00–U+DFFF) does not follow it'
      : 'no high half (U+D800–U+DBFF) comes just before it';
    throw new XmlRpcProtocolError(
      `the character reference ${ref} (at ${lineAndColumn(text, index)}) is a lone UTF-16 ${half} surrogate (U+${hex(cp)}), half of a character: ` +
        `${other}. Write characters outside the BMP as themselves in UTF-8, or as one reference to the code point (e.g. &#x1D6FC;)`,
    );
  };
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const sectionEnd = SECTION_END[m[0]];
    if (sectionEnd) {
      if (pendingHigh) lone(pendingHigh.cp, pendingHigh.index, pendingHigh.ref);
      const end = text.indexOf(sectionEnd, pattern.lastIndex);
      if (end < 0) break; // never closed: the parser says so
      pattern.lastIndex = end + sectionEnd.length;
      continue;
    }
    const cp = referenced(m);
    if (pendingHigh) {
      if (!isLow(cp) || m.index !== pendingHigh.index + pendingHigh.ref.length) lone(pendingHigh.cp, pendingHigh.index, pendingHigh.ref);
      const joined = 0x10000 + ((pendingHigh.cp - 0xd800) << 10) + (cp - 0xdc00);
      parts.push(text.slice(copiedUpTo, pendingHigh.index), `&#x${joined.toString(16).toUpperCase()};`);
      copiedUpTo = m.index + m[0].length;
      pendingHigh = undefined;
      continue;
    }
    if (isHigh(cp)) pendingHigh = { cp, index: m.index, ref: m[0] };
    else if (isLow(cp)) lone(cp, m.index, m[0]);
  }
  if (pendingHigh) lone(pendingHigh.cp, pendingHigh.index, pendingHigh.ref);
  if (parts.length === 0) return text;
  parts.push(text.slice(copiedUpTo));
  return parts.join('');
}
