// One call to one annotation server over HTTP, for every protocol: ONE deadline covering
// connect, send, wait and receive — and, for an asynchronous answer (303 See Other, then
// polling its Location), every poll and every wait between them — and a cap on the answer
// size. `callHttp` never throws: every failure comes back classified (outcome.ts) with a
// detail a team can act on, plus timings and byte counts.
// The URL policy is the dispatcher's (dispatch/annotators/policed-agent.ts): it is applied at every
// connection, so a Location on another host is policed like the registered URL.
//
// The exchange is a few named steps (http-exchange/), each handed the call's deadline and
// one record of its progress (counters, where it is): send the article, follow and poll an
// asynchronous answer until it is there, read the answer (size cap, status), decode it.
// Nothing here knows a protocol: a protocol's decode throws AnswerFormatError for a body
// it cannot read, whatever its own codec throws.
import type { Dispatcher } from 'undici';
import type { CallOutcome, Decoded } from './outcome.ts';
import { defaultAgent } from './http-exchange/agent.ts';
import { startDeadline } from './http-exchange/deadline.ts';
import { untilAnswered, type PollingRules } from './http-exchange/poll.ts';
import { countersOf, failed, startProgress } from './http-exchange/progress.ts';
import { decodeAnswer, readAnswer } from './http-exchange/read.ts';
import { send, type Outgoing } from './http-exchange/send.ts';
import { failureOfThrown } from './http-exchange/thrown.ts';

export { createServerAgent } from './http-exchange/agent.ts';
export { pollWaitMs, retryAfterMs, type PollingRules } from './http-exchange/poll.ts';

export interface HttpCallRequest<V> {
  url: string;
  body: string | Buffer;
  contentType: string;
  accept?: string;
  deadlineMs: number;
  maxResponseBytes: number;
  /** Cancels the call (e.g. the worker is shutting down); reported as a `connection` failure whose detail starts with "cancelled". */
  signal?: AbortSignal;
  /**
   * Reads a complete answer body; throws AnswerFormatError for one that is not a valid
   * answer (a protocol maps its codec's own errors to it, see withFormatErrors in
   * outcome.ts). The deadline no longer runs while it works. `charset` is the one named in
   * the answer's Content-Type.
   */
  decode: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>;
  /** What the protocol needs of a status, for an unexpected one: "an XML-RPC answer needs status 200". */
  expects: string;
  /** Asynchronous answers: a 303 See Other with a Location is polled (GET) until it answers. */
  polling?: PollingRules;
}

/** The registered URL, if it is one a call can go to. */
function httpUrlOf(url: string): URL | undefined {
  try {
    const target = new URL(url);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POSTs the article to the server and reads its answer (polling for an asynchronous one),
 * all under one deadline. Never throws: every failure is an outcome with its detail, and
 * every outcome carries the time the server took and the bytes each way.
 */
export async function callHttp<V>(req: HttpCallRequest<V>, dispatcher?: Dispatcher): Promise<CallOutcome<V>> {
  const target = httpUrlOf(req.url);
  if (!target) {
    const detail = `the server URL "${req.url}" is not a valid http:// or https:// URL — check the registration`;
    return { ok: false, kind: 'connection', detail, ms: 0, bytesSent: 0, bytesReceived: 0 };
  }
  const progress = startProgress(target, req.body);

  const deadline = startDeadline(req.deadlineMs, req.signal);
  const outgoing: Outgoing = {
    body: req.body,
    contentType: req.contentType,
    accept: req.accept,
    dispatcher: dispatcher ?? defaultAgent(),
    signal: deadline.signal,
  };
  try {
    const posted = await send(outgoing, 'POST', progress);
    const answered = req.polling ? await untilAnswered(posted, outgoing, req.polling, progress) : { ok: true as const, value: posted };
    if (!answered.ok) return failed(progress, answered.failure);
    const body = await readAnswer(answered.value, req, deadline, progress);
    if (!body.ok) return failed(progress, body.failure);
    const decoded = await decodeAnswer(req.decode, body.value);
    if (!decoded.ok) return failed(progress, decoded.failure);
    return { ok: true, value: decoded.value, ...countersOf(progress) };
  } catch (err) {
    return failed(progress, failureOfThrown(err, deadline, progress));
  } finally {
    deadline.stop();
  }
}
