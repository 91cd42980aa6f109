// Article text at the edge: size-checked, XML-illegal characters replaced one for one (so
// offsets do not move), and stored exactly as it will be sent.
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
  if (input.xml !== undefined) {
    throw new ApiError(400, 'unsupported_format', `${where}: JATS/NXML articles are not accepted yet; send the plain text as "text"`);
  }
  if (input.text === undefined) throw badRequest(`${where}: the article needs a "text"`);
  if (input.text.trim() === '') throw badRequest(`${where}: the article text is empty`);
  const bytes = Buffer.byteLength(input.text, 'utf8');
  if (bytes > maxBytes) throw new ApiError(413, 'article_too_large', `${where}: the article has ${bytes} bytes; at most ${maxBytes} are accepted`);
  return { text: sanitizeXmlText(input.text), sourceFormat: 'text' };
}
