// Request bodies are decoded as strict UTF-8, every one of them (JSON, XML-RPC calls, TSV
// uploads): a lenient decoder — fastify's own text parser among them — turns bad bytes
// into U+FFFD, and a mangled article would be stored, or an accession would silently stop
// matching, without a word.
import type { FastifyInstance } from 'fastify';
import { strictUtf8 } from '../shared/utf8.ts';

export interface Utf8BodyHandling {
  /** A smaller limit than the app's for these content types. */
  bodyLimit?: number;
  /** Turns the text into the request body; may throw an error for the client (invalid JSON). */
  parse?: (text: string) => unknown;
  /** What bytes that are not UTF-8 become: an error (a 4xx) or a body the handler answers itself (an XML-RPC fault). */
  invalid: () => { error: Error } | { body: unknown };
}

/** Registers the parser of these content types (replacing fastify's own in this plugin): strict UTF-8, then `parse`. */
export function addUtf8BodyParser(app: FastifyInstance, types: string[], handling: Utf8BodyHandling): void {
  for (const type of types) if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  const options =
    handling.bodyLimit === undefined ? { parseAs: 'buffer' as const } : { parseAs: 'buffer' as const, bodyLimit: handling.bodyLimit };
  app.addContentTypeParser(types, options, (_request, body: Buffer, done) => {
    const text = strictUtf8(body);
    if (text === null) {
      const outcome = handling.invalid();
      return 'error' in outcome ? done(outcome.error, undefined) : done(null, outcome.body);
    }
    try {
      done(null, handling.parse ? handling.parse(text) : text);
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
