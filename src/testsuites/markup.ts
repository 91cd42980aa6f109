// The two gold representations of a generated item and the bridge between them: the
// paper's SGML-like inline form (`<gp>ACOX2</gp> polymorphisms …`) and standoff
// mentions with code-point offsets (MentionItem, as MENTION servers answer).

import type { MentionItem } from '../families/mention/types.ts';
import { codePointLength } from '../shared/code-points.ts';

const GP_OPEN = '<gp>';
const GP_CLOSE = '</gp>';
const GENE_TYPE = 'gene';

/** Raw text, SGML gold and standoff gold of a frame whose slots all receive `data`. */
export function fillSlots(pieces: readonly string[], data: string): { text: string; sgml: string; mentions: MentionItem[] } {
  let text = pieces[0];
  let offset = codePointLength(pieces[0]);
  const length = codePointLength(data);
  const mentions: MentionItem[] = [];
  for (const piece of pieces.slice(1)) {
    mentions.push({ start: offset, end: offset + length, text: data, type: GENE_TYPE });
    text += data + piece;
    offset += length + codePointLength(piece);
  }
  return { text, sgml: pieces.join(`${GP_OPEN}${data}${GP_CLOSE}`), mentions };
}

class MarkupError extends Error {}

/** Reads the SGML-like gold back into raw text and standoff mentions (tags do not nest). */
export function parseGpMarkup(sgml: string): { text: string; mentions: MentionItem[] } {
  let text = '';
  let offset = 0;
  const mentions: MentionItem[] = [];
  let rest = sgml;
  for (;;) {
    const open = rest.indexOf(GP_OPEN);
    const strayClose = rest.indexOf(GP_CLOSE);
    if (strayClose >= 0 && (open < 0 || strayClose < open)) throw new MarkupError(`${GP_CLOSE} without ${GP_OPEN}`);
    if (open < 0) break;
    const close = rest.indexOf(GP_CLOSE, open);
    if (close < 0) throw new MarkupError(`${GP_OPEN} without ${GP_CLOSE}`);
    const before = rest.slice(0, open);
    const inside = rest.slice(open + GP_OPEN.length, close);
    if (inside.includes(GP_OPEN)) throw new MarkupError('nested <gp> tags');
    text += before;
    offset += codePointLength(before);
    const length = codePointLength(inside);
    mentions.push({ start: offset, end: offset + length, text: inside, type: GENE_TYPE });
    text += inside;
    offset += length;
    rest = rest.slice(close + GP_CLOSE.length);
  }
  return { text: text + rest, mentions };
}
