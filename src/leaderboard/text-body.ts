// Plain-text bodies (BC II.5 TSV files, maps) for the leaderboard routes only. Registered
// inside the leaderboard plugin, so fastify's encapsulation keeps them away from every
// other route. Bytes are decoded strictly: fastify's own text parser would turn invalid
// UTF-8 into U+FFFD and an accession would silently stop matching the gold.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.ts';

export const TEXT_TYPES = ['text/tab-separated-values', 'text/plain'];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function registerTextParsers(app: FastifyInstance): void {
  // The root instance has fastify's default text/plain parser; this plugin's copy replaces it.
  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(TEXT_TYPES, { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    try {
      done(null, strictUtf8.decode(body));
    } catch {
      done(new ApiError(400, 'invalid_utf8', 'the request body is not valid UTF-8; save the file as UTF-8 and send it again'), undefined);
    }
  });
}
