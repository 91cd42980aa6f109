// Reading a JSON answer body, for the protocols that answer JSON: UTF-8 (RFC 8259; a BOM
// is skipped), one JSON document, with messages that say what is wrong and what to do.
import { strictUtf8 } from '../../shared/utf8.ts';
import { AnswerFormatError } from './outcome.ts';

export function parseJsonAnswer(body: Buffer, charset: string | undefined, protocol: string): unknown {
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new AnswerFormatError(
      `the answer declares charset ${charset}; a JSON answer is UTF-8 (send Content-Type: application/json; charset=utf-8)`,
    );
  }
  // A byte-order mark is dropped by the decoding.
  const text = strictUtf8(body);
  if (text === null) throw new AnswerFormatError('the answer is not valid UTF-8; a JSON answer is UTF-8');
  const start = text.trimStart();
  if (start === '') throw new AnswerFormatError('the answer is empty; a JSON object was expected');
  if (start[0] === '<') {
    const what = /^<\?xml|^<methodResponse/i.test(start) ? 'XML (an XML-RPC answer?)' : 'XML or HTML';
    throw new AnswerFormatError(
      `the answer is ${what}, not JSON: is the server registered with the right protocol (this one is "${protocol}"; XML-RPC servers are "xmlrpc")?`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new AnswerFormatError(`the answer is not valid JSON (${(err as Error).message}); it begins ${JSON.stringify(shown)}`);
  }
}
