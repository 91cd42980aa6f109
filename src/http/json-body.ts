// JSON and plain-text bodies are checked for valid UTF-8 before parsing (http/utf8-body.ts):
// the default parsers would turn bad bytes into U+FFFD and store a mangled article without a
// word. Plain text too, app-wide: a route with no body schema (POST /api/admin/backup) would
// otherwise take bad bytes without a word where every other route refuses them.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.ts';
import { addUtf8BodyParser } from './utf8-body.ts';

export function registerJsonParser(app: FastifyInstance): void {
  addUtf8BodyParser(app, ['application/json'], {
    invalid: () => ({ error: new ApiError('invalid_utf8', 'the request body is not valid UTF-8; send the text encoded as UTF-8') }),
    parse: (text) => {
      if (text.trim() === '') throw new ApiError('invalid_json', 'the request body is empty; send a JSON object');
      try {
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw new ApiError('invalid_json', `the request body is not valid JSON: ${(err as Error).message}`);
      }
    },
  });
}

export function registerPlainTextParser(app: FastifyInstance): void {
  addUtf8BodyParser(app, ['text/plain'], {
    invalid: () => ({ error: new ApiError('invalid_utf8', 'the request body is not valid UTF-8; send the text encoded as UTF-8') }),
  });
}
