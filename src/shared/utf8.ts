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
