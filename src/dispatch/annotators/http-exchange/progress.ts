// What an exchange has done so far, in one record each step is handed and adds to: the
// counters every outcome carries (time, bytes each way), and what a failure at any step
// needs to say where it happened (which URL, whether headers came, how many polls).
import { performance } from 'node:perf_hooks';
import type { CallOutcome, Counters, FailureKind } from '../outcome.ts';

export interface Progress {
  readonly started: number;
  /** The request body's size: what was sent once the request went out. */
  readonly bodyBytes: number;
  bytesSent: number;
  /** Every body read: the answer's, and a redirect's or a "not ready" poll's before it. */
  bytesReceived: number;
  /** The URL asked last: the registered one, then the Location of an asynchronous answer. */
  at: URL;
  /** Whether the last request got a connection (was written on a connected socket): a deadline before it is "not accepted". */
  connected: boolean;
  /** Whether the last request's response headers came: a failure after them is "after N bytes". */
  headersSeen: boolean;
  /** Set once the answer is asynchronous: how many polls said "not ready", and whether it is waiting to poll again. */
  polling?: { notReady: number; waiting: boolean };
  /** When the whole answer was in: the server's time ends there, whatever reading it takes. */
  receivedAt?: number;
}

/** A step's failure; the counters are added when the call ends (failed()). */
export interface StepFailure {
  kind: FailureKind;
  detail: string;
  httpStatus?: number;
  faultCode?: number | string;
}

/** What a step comes to: its result, or the failure that ends the call. */
export type Step<T> = { ok: true; value: T } | { ok: false; failure: StepFailure };

export function startProgress(target: URL, body: string | Buffer): Progress {
  return {
    started: performance.now(),
    bodyBytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    bytesSent: 0,
    bytesReceived: 0,
    at: target,
    connected: false,
    headersSeen: false,
  };
}

export function countersOf(progress: Progress): Counters {
  const { started, receivedAt, bytesSent, bytesReceived } = progress;
  return { ms: Math.round((receivedAt ?? performance.now()) - started), bytesSent, bytesReceived };
}

export function failed<V>(progress: Progress, failure: StepFailure): CallOutcome<V> {
  return { ok: false, ...failure, ...countersOf(progress) };
}
