// Steps of an asynchronous answer (PubAnnotation's annotation-server API): the article's
// POST is answered 303 See Other; its Location is followed, then polled (GET) while it
// answers "not ready", waiting as Retry-After says, until it answers, says the result is
// gone, or the call's one deadline passes (its signal ends a wait or a poll under way).
import type { Dispatcher } from 'undici';
import type { FailureKind } from '../outcome.ts';
import { pause } from './deadline.ts';
import type { Progress, Step } from './progress.ts';
import { drain } from './read.ts';
import { send, type Outgoing } from './send.ts';

type Response = Dispatcher.ResponseData;

/** How an asynchronous answer is fetched (PubAnnotation's annotation-server API). */
export interface PollingRules {
  /** Statuses of a poll meaning "not ready yet, ask again" (PubAnnotation: 404). */
  notReady: readonly number[];
  /** Wait before a poll when the server names none (no Retry-After). */
  defaultWaitMs: number;
  /** Shortest wait before a poll, whatever Retry-After says (no busy loop on "Retry-After: 0"). */
  minWaitMs: number;
  /** A status of a poll meaning the result will never come (PubAnnotation: 410 Gone), and the failure it is. */
  gone?: { status: number; kind: FailureKind; detail: (location: string) => string };
}

/** Retry-After as milliseconds: delay-seconds or an HTTP-date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before the next poll: what Retry-After says (the rules' default when it says nothing), never under minWaitMs. */
export function pollWaitMs(retryAfter: string | undefined, rules: PollingRules, now = Date.now()): number {
  return Math.max(rules.minWaitMs, retryAfterMs(retryAfter, now) ?? rules.defaultWaitMs);
}

function headerOf(headers: Response['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Step: where a 303 See Other sends the exchange (its Location, resolved against `from`), or why it cannot be followed. */
function follow(response: Response, from: URL): Step<URL> {
  const location = headerOf(response.headers, 'location');
  const httpStatus = response.statusCode;
  if (!location) {
    return {
      ok: false,
      failure: {
        kind: 'protocol',
        detail: `the server at ${from.host} answered 303 See Other without a Location header: an asynchronous answer must say where its result will be`,
        httpStatus,
      },
    };
  }
  try {
    const next = new URL(location, from);
    if (next.protocol === 'http:' || next.protocol === 'https:') return { ok: true, value: next };
  } catch {
    // not a URL: refused below, as a non-http one is
  }
  return {
    ok: false,
    failure: {
      kind: 'protocol',
      detail: `the server at ${from.host} answered 303 See Other with the Location "${location.slice(0, 200)}", which is not an http:// or https:// URL`,
      httpStatus,
    },
  };
}

/** What a response means in an asynchronous exchange; "not ready" and "gone" only from a poll, not from the POST. */
type Turn = 'answer' | 'redirect' | 'notReady' | 'gone';

function turnOf(status: number, rules: PollingRules, polled: boolean): Turn {
  if (polled && rules.gone && status === rules.gone.status) return 'gone';
  if (status === 303) return 'redirect';
  if (polled && rules.notReady.includes(status)) return 'notReady';
  return 'answer';
}

/**
 * Step: from the response to the article's POST to the response that is the answer (to be
 * read and judged by its status like any other): a 303 is followed, a "not ready" polled
 * again after the wait; a result that is gone, or a Location that cannot be followed, ends
 * the call. Every wait and poll is under the deadline whose signal `outgoing` carries.
 */
export async function untilAnswered(first: Response, outgoing: Outgoing, rules: PollingRules, progress: Progress): Promise<Step<Response>> {
  let response = first;
  for (let polled = false; ; polled = true) {
    const status = response.statusCode;
    const turn = turnOf(status, rules, polled);
    if (turn === 'answer') return { ok: true, value: response };
    if (turn === 'gone' && rules.gone) {
      await drain(response, progress);
      return { ok: false, failure: { kind: rules.gone.kind, detail: rules.gone.detail(progress.at.href), httpStatus: status } };
    }
    const waitMs = pollWaitMs(headerOf(response.headers, 'retry-after'), rules);
    await drain(response, progress);
    if (turn === 'redirect') {
      const next = follow(response, progress.at);
      if (!next.ok) return next;
      progress.at = next.value;
    }
    const polling = (progress.polling ??= { notReady: 0, waiting: false });
    if (turn === 'notReady') polling.notReady += 1;
    polling.waiting = true;
    await pause(waitMs, outgoing.signal);
    polling.waiting = false;
    response = await send(outgoing, 'GET', progress);
  }
}
