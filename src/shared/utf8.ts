// Bytes that must be UTF-8 (request bodies, JSON and XML-RPC answers), decoded strictly:
// a lenient decoder turns bad bytes into U+FFFD, and a mangled text would be stored or
// matched without a word. A leading byte-order mark is dropped, as TextDecoder does.
const strict = new TextDecoder('utf-8', { fatal: true });

/** The text, or null when the bytes are not valid UTF-8 (the caller says what to send instead). */
export function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A strict decoder for bytes that come in pieces (a file read as a stream): `decode` each
 * piece with `{ stream: true }` (a character split between pieces is kept for the next),
 * then once without arguments at the end. Bad bytes throw a TypeError.
 */
export function strictUtf8Stream(): { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string } {
  return new TextDecoder('utf-8', { fatal: true });
}
