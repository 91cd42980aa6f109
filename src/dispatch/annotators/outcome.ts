// What one call to an annotation server comes to, whatever protocol it speaks: an answer
// value, or one of the failure kinds dispatch records (the attempts table's outcomes), with
// a detail a team can act on, and the timings and byte counts of the reliability figures.
// The kinds belong to dispatch: every protocol reports its failures in these terms.

/**
 * timeout: no complete answer within the deadline; connection: the server could not be
 * reached or dropped the connection; http: a status the protocol does not expect;
 * protocol: an answer that cannot be read (not HTTP, not the protocol's format, over the
 * size cap); fault: the server said, in its protocol's terms, that it failed.
 */
export type FailureKind = 'timeout' | 'connection' | 'http' | 'protocol' | 'fault';

/** A decoded answer: a value (whatever the decoder makes of it), or the protocol's fault. */
export type Decoded<V> = { kind: 'value'; value: V } | { kind: 'fault'; code: number | string; message: string };

export interface Counters {
  ms: number;
  bytesSent: number;
  bytesReceived: number;
}

export type CallOutcome<V> =
  | ({ ok: true; value: V } & Counters)
  | ({ ok: false; kind: FailureKind; detail: string; httpStatus?: number; faultCode?: number | string } & Counters);

export type FailedCall = Extract<CallOutcome<unknown>, { ok: false }>;

/**
 * Thrown by a protocol's decoder for a body that is not an answer in its format: the call
 * fails as `protocol`, with this message (written for the team: what is wrong, what to do).
 */
export class AnswerFormatError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }
}

/** How a protocol names its own codec's errors for an unreadable answer as the shared AnswerFormatError (undefined: not one of them). */
export type FormatErrorOf = (err: unknown) => AnswerFormatError | undefined;

/**
 * `decode`, with the errors `formatErrorOf` recognises (a protocol codec's own, such as
 * the XML-RPC codec's) thrown as AnswerFormatError: the one error the HTTP exchange reads
 * as an answer that is not in the protocol's format. Without `formatErrorOf`, `decode` itself.
 */
export function withFormatErrors<V>(
  decode: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>,
  formatErrorOf: FormatErrorOf | undefined,
): (body: Buffer, charset: string | undefined) => Promise<Decoded<V>> | Decoded<V> {
  if (!formatErrorOf) return decode;
  return async (body, charset) => {
    try {
      return await decode(body, charset);
    } catch (err) {
      throw formatErrorOf(err) ?? err;
    }
  };
}
