// Several articles in one call, for a server registered with batchSize > 1. The JSON
// protocols send a JSON array of the requests they would send one by one and read back an
// array of as many answers, in the same order (the form of PubAnnotation's `_docs_`
// payload); XML-RPC uses system.multicall (xmlrpc-multicall.ts). One item of the answer may
// be a fault or unreadable: only that article fails, and only it is sent again.
import { AnswerFormatError } from './outcome.ts';
import { parseJsonAnswer } from './json-body.ts';
import type { BatchForm, BatchItem, DecodedAnswer, FaultAnswer, RequestParts } from './types.ts';

/** The message for a batch answer holding another number of answers than articles sent. */
export function countMismatch(got: number, sent: number): string {
  return `the batch answer holds ${got} answer${got === 1 ? '' : 's'} for the ${sent} article${sent === 1 ? '' : 's'} sent: a batch is answered by one answer per article, in the order sent`;
}

/**
 * The array form over a JSON protocol: `encodeOne` writes one article's request as that
 * protocol's JSON, `decodeOne` reads one item of the answer array, with the text it answers;
 * `wholeFault`, for a protocol that has one, reads a failure of the whole call in its own
 * terms (the JSON protocol's {"error": …}) in place of the array.
 */
export function jsonArrayBatch(
  protocol: string,
  encodeOne: (parts: RequestParts) => string,
  decodeOne: (value: unknown, text: string) => DecodedAnswer,
  wholeFault?: (value: unknown) => FaultAnswer | undefined,
): BatchForm {
  return {
    encode: (parts) => `[${parts.map(encodeOne).join(',')}]`,
    decode(body, charset, texts) {
      const value = parseJsonAnswer(body, charset, protocol);
      if (!Array.isArray(value)) {
        // A failure of the whole call is every article's fault.
        const whole = wholeFault?.(value);
        if (whole) return whole;
        throw new AnswerFormatError(
          `the answer to a batch of ${texts.length} articles is a JSON ${value === null ? 'null' : typeof value}, not an array: a batch is answered by a JSON array of one answer per article, in the order sent`,
        );
      }
      if (value.length !== texts.length) throw new AnswerFormatError(countMismatch(value.length, texts.length));
      const items = value.map((item, i): BatchItem => {
        try {
          return decodeOne(item, texts[i]);
        } catch (err) {
          if (err instanceof AnswerFormatError) return { kind: 'unreadable', message: err.message };
          throw err;
        }
      });
      return { kind: 'items', items };
    },
  };
}
