// Article text at the edge: size-checked, XML-illegal characters replaced one for one (so
// offsets do not move), and stored exactly as it will be sent.
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

export function articleText(input: ArticleInput, where: string, maxBytes: number): { text: string; sourceFormat: string } {
  if (input.xml !== undefined && input.text !== undefined) throw badRequest(`${where}: give either text or xml, not both`);
  if (input.xml === undefined && input.text === undefined) throw badRequest(`${where}: the article needs a "text" (plain text) or an "xml" (JATS/NXML)`);
  const raw = (input.xml ?? input.text)!;
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > maxBytes) throw new ApiError(413, 'article_too_large', `${where}: the article has ${bytes} bytes; at most ${maxBytes} are accepted`);
  let text = raw;
  if (input.xml !== undefined) {
    try {
      // The converted text is what is stored, sent and shown: offsets refer to it.
      text = jatsToText(input.xml).text;
    } catch (err) {
      if (err instanceof FormatError) throw new ApiError(400, 'invalid_jats', `${where}: the JATS/NXML article cannot be read: ${err.message}`);
      throw err;
    }
  }
  if (text.trim() === '') throw badRequest(`${where}: the article text is empty`);
  return { text: sanitizeXmlText(text), sourceFormat: input.xml !== undefined ? 'jats' : 'text' };
}
