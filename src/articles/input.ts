// Article text at the edge: size-checked, XML-illegal characters and carriage returns
// replaced one for one (so offsets do not move), and stored exactly as it will be sent.
import { FormatError } from '../formats/common.ts';
import { jatsToText } from '../formats/jats.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import { sanitizeXmlText } from '../xmlrpc/codec.ts';

export interface ArticleInput {
  id?: string;
  text?: string;
  xml?: string;
  given?: string;
}

/**
 * The text as it is stored and sent. Characters XML 1.0 cannot carry become spaces, and no
 * carriage return is sent: every XML parser turns a raw CR or CR LF into LF, and several
 * servers (Python's, xmlrpc-c) send a CR back raw, so a mention spanning one could never
 * match. A CR before a LF becomes a space, a lone CR a LF: one character for one.
 */
export function textAsSent(text: string): string {
  const sanitized = sanitizeXmlText(text);
  return sanitized.includes('\r') ? sanitized.replace(/\r\n?/g, (crlf) => (crlf.length === 2 ? ' \n' : '\n')) : sanitized;
}

export function articleText(input: ArticleInput, where: string, maxBytes: number): { text: string; sourceFormat: string } {
  if (input.xml !== undefined && input.text !== undefined) throw badRequest(`${where}: give either text or xml, not both`);
  if (input.xml === undefined && input.text === undefined) throw badRequest(`${where}: the article needs a "text" (plain text) or an "xml" (JATS/NXML)`);
  const raw = (input.xml ?? input.text)!;
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > maxBytes) throw new ApiError('article_too_large', `${where}: the article has ${bytes} bytes; at most ${maxBytes} are accepted`);
  let text = raw;
  if (input.xml !== undefined) {
    try {
      // The converted text is what is stored, sent and shown: offsets refer to it.
      text = jatsToText(input.xml).text;
    } catch (err) {
      if (err instanceof FormatError) throw new ApiError('invalid_jats', `${where}: the JATS/NXML article cannot be read: ${err.message}`);
      throw err;
    }
  }
  if (text.trim() === '') throw badRequest(`${where}: the article text is empty`);
  const sent = textAsSent(text);
  // Checked after replacing: control characters alone would go out as a blank text.
  if (sent.trim() === '') {
    throw badRequest(`${where}: the article text holds only characters XML cannot carry (control characters, U+FFFE, U+FFFF, lone surrogates), which would be sent as spaces`);
  }
  return { text: sent, sourceFormat: input.xml !== undefined ? 'jats' : 'text' };
}
