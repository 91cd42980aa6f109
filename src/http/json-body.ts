// JSON bodies are checked for valid UTF-8 before parsing: the default parser would turn
// bad bytes into U+FFFD and store a mangled article without a word.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      return done(new ApiError('invalid_utf8', 'the request body is not valid UTF-8; send the text encoded as UTF-8'), undefined);
    }
    if (text.trim() === '') return done(new ApiError('invalid_json', 'the request body is empty; send a JSON object'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ApiError('invalid_json', `the request body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
}
