// One call to one annotation server over HTTP, for every protocol: ONE deadline covering
// connect, send, wait and receive — and, for an asynchronous answer (303 See Other, then
// polling its Location), every poll and every wait between them — and a cap on the answer
// size. undici's own timeouts (300 s for headers and body, 10 s for connect) are switched
// off so they never cut a 600 s deadline short; at our deadline the request is aborted,
// which closes the connection. `callHttp` never throws: every failure comes back
// classified (outcome.ts) with a detail a team can act on, plus timings and byte counts.
// The URL policy is the dispatcher's (servers/policed-agent.ts): it is applied at every
// connection, so a Location on another host is policed like the registered URL.
import { STATUS_CODES } from 'node:http';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request, type buildConnector, type Dispatcher } from 'undici';
import { XmlRpcProtocolError } from '../../xmlrpc/errors.ts';
import { AnswerFormatError, type CallOutcome, type Counters, type Decoded, type FailureKind } from './outcome.ts';
import { closedWhileKeptAlive, describeTransportError, formatDuration } from './transport-errors.ts';

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
   * Reads a complete answer body; throws AnswerFormatError (or the XML-RPC codec's error)
   * for one that is not a valid answer. The deadline no longer runs while it works.
   * `charset` is the one named in the answer's Content-Type.
   */
  decode: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>;
  /** What the protocol needs of a status, for an unexpected one: "an XML-RPC answer needs status 200". */
  expects: string;
  /** Asynchronous answers: a 303 See Other with a Location is polled (GET) until it answers. */
  polling?: PollingRules;
}

const HTTP_EXCERPT_BYTES = 2048;

/**
 * An undici Agent for one annotation server: keep-alive, and no timeouts of its own (the
 * call's deadline rules). `lookup` resolves host names for new connections; `connect`
 * replaces the connector altogether (the URL policy's, see servers/policed-agent.ts).
 */
export function createServerAgent(opts: { connections?: number; lookup?: LookupFunction; connect?: buildConnector.connector } = {}): Agent {
  return new Agent({
    connections: opts.connections ?? 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: opts.connect ?? (opts.lookup ? { timeout: 0, lookup: opts.lookup } : { timeout: 0 }),
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
    pipelining: 1,
  });
}

let sharedAgent: Agent | undefined;
function defaultAgent(): Agent {
  sharedAgent ??= createServerAgent({ connections: 64 });
  return sharedAgent;
}

/** The charset parameter of a Content-Type header, if any. */
function charsetOf(contentType: string | string[] | undefined): string | undefined {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(value)?.[1] : undefined;
}

function headerOf(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function excerptOf(body: Buffer): string {
  const text = body.toString('utf8').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Retry-After as milliseconds: delay-seconds or an HTTP-date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isAnswerFormatError(err: unknown): err is Error {
  return err instanceof AnswerFormatError || err instanceof XmlRpcProtocolError;
}

/** Resolves when `ms` have passed; rejects at once when `signal` aborts (the deadline). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function callHttp<V>(req: HttpCallRequest<V>, dispatcher?: Dispatcher): Promise<CallOutcome<V>> {
  const started = performance.now();
  const bodyBytes = typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.length;
  let bytesSent = 0;
  let bytesReceived = 0;
  let headersSeen = false;
  /** While polling: where, and how many polls said "not ready" (for the deadline's detail). */
  let polling: { location: string; notReady: number; waiting: boolean } | undefined;
  /** When the whole answer was in: the server's time ends there, whatever reading it takes. */
  let receivedAt: number | undefined;
  const counters = (): Counters => ({ ms: Math.round((receivedAt ?? performance.now()) - started), bytesSent, bytesReceived });
  const failure = (kind: FailureKind, detail: string, extra: { httpStatus?: number; faultCode?: number | string } = {}): CallOutcome<V> => ({
    ok: false,
    kind,
    detail,
    ...extra,
    ...counters(),
  });

  let target: URL;
  try {
    target = new URL(req.url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not http');
  } catch {
    return failure('connection', `the server URL "${req.url}" is not a valid http:// or https:// URL — check the registration`);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.max(1, req.deadlineMs));
  const onCancel = (): void => controller.abort();
  if (req.signal?.aborted) onCancel();
  else req.signal?.addEventListener('abort', onCancel, { once: true });

  const deadlineDetail = (): string => {
    const head = `no complete answer within the deadline of ${formatDuration(req.deadlineMs)} (`;
    if (polling) {
      const asked = `${polling.notReady} poll${polling.notReady === 1 ? '' : 's'} answered "not ready" so far`;
      return `${head}the answer was asynchronous: ${polling.waiting ? 'waiting to poll' : 'polling'} ${polling.location}; ${asked})`;
    }
    return head + (headersSeen ? `${bytesReceived} byte${bytesReceived === 1 ? '' : 's'} of the answer received so far)` : 'no response headers received)');
  };

  const send = async (url: URL, method: 'POST' | 'GET'): Promise<Dispatcher.ResponseData> => {
    headersSeen = false;
    const headers: Record<string, string> = { 'user-agent': 'metaserver' };
    if (method === 'POST') headers['content-type'] = req.contentType;
    if (req.accept) headers.accept = req.accept;
    const options = {
      method,
      headers,
      body: method === 'POST' ? req.body : undefined,
      signal: controller.signal,
      dispatcher: dispatcher ?? defaultAgent(),
      headersTimeout: 0,
      bodyTimeout: 0,
    };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, options);
    } catch (err) {
      // A server that closes each connection after its answer without saying so
      // (Frontier::Daemon) leaves a kept-alive connection that is already closed when the
      // next call goes out: that call never reached it, so it is sent once more, on a new
      // connection. Sending an article twice is harmless (dispatch is at-least-once anyway).
      if (controller.signal.aborted || !closedWhileKeptAlive(err)) throw err;
      response = await request(url, options);
    }
    headersSeen = true;
    return response;
  };

  /** Reads a body that is not the answer (a redirect's, a "not ready"), up to the excerpt size. */
  const drain = async (response: Dispatcher.ResponseData): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytesReceived += chunk.length;
      size += chunk.length;
      chunks.push(chunk);
      if (size > HTTP_EXCERPT_BYTES) break;
    }
    return Buffer.concat(chunks);
  };

  let current = target;
  try {
    let response = await send(current, 'POST');
    bytesSent = bodyBytes;
    // An asynchronous answer: follow 303 See Other to its Location, then poll it (GET)
    // while it answers "not ready", waiting as Retry-After says (the whole exchange is
    // this one call, under its one deadline).
    for (let polled = false; req.polling; ) {
      const rules: PollingRules = req.polling;
      const status = response.statusCode;
      const redirect = status === 303;
      const notReady = polled && rules.notReady.includes(status);
      if (polled && rules.gone && status === rules.gone.status) {
        await drain(response);
        return failure(rules.gone.kind, rules.gone.detail(current.href), { httpStatus: status });
      }
      if (!redirect && !notReady) break;
      const wait = retryAfterMs(headerOf(response.headers, 'retry-after'));
      await drain(response);
      if (redirect) {
        const location = headerOf(response.headers, 'location');
        if (!location) return failure('protocol', `the server at ${current.host} answered 303 See Other without a Location header: an asynchronous answer must say where its result will be`, { httpStatus: status });
        let next: URL;
        try {
          next = new URL(location, current);
          if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error('not http');
        } catch {
          return failure('protocol', `the server at ${current.host} answered 303 See Other with the Location "${location.slice(0, 200)}", which is not an http:// or https:// URL`, { httpStatus: status });
        }
        current = next;
        polling = { location: current.href, notReady: polling?.notReady ?? 0, waiting: true };
      } else {
        polling!.notReady += 1;
        polling!.waiting = true;
      }
      await pause(Math.max(rules.minWaitMs, wait ?? rules.defaultWaitMs), controller.signal);
      polling!.waiting = false;
      response = await send(current, 'GET');
      polled = true;
    }

    const status = response.statusCode;
    const limit = status === 200 ? req.maxResponseBytes : HTTP_EXCERPT_BYTES;
    const declared = Number(response.headers['content-length']);
    if (status === 200 && Number.isFinite(declared) && declared > limit) {
      response.body.destroy();
      controller.abort();
      return failure('protocol', `the answer exceeded the cap of ${limit} bytes (it announced ${declared} bytes); send smaller answers or ask the organisers to raise the cap`);
    }
    const chunks: Buffer[] = [];
    let overCap = false;
    // The cap is on this answer's body; bytesReceived also counts the bodies of a redirect and of "not ready" polls.
    let answerBytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytesReceived += chunk.length;
      answerBytes += chunk.length;
      chunks.push(chunk);
      if (answerBytes > limit) {
        overCap = true;
        break; // leaving the loop destroys the body stream
      }
    }
    const body = Buffer.concat(chunks);
    if (status !== 200) {
      controller.abort();
      const reason = STATUS_CODES[status] ?? 'unknown status';
      const shown = excerptOf(body.subarray(0, HTTP_EXCERPT_BYTES));
      const where = polling ? ` when polling ${current.href}` : '';
      return failure('http', `HTTP ${status} ${reason}${where}${shown ? `: ${shown}` : ''} (${req.expects})`, { httpStatus: status });
    }
    if (overCap) {
      controller.abort();
      return failure('protocol', `the answer exceeded the cap of ${limit} bytes and was cut off; send smaller answers or ask the organisers to raise the cap`);
    }
    receivedAt = performance.now();
    clearTimeout(timer); // the server is done: reading the answer is our time, not its
    const decoded = await req.decode(body, charsetOf(response.headers['content-type']));
    if (decoded.kind === 'fault') {
      const code = typeof decoded.code === 'string' ? JSON.stringify(decoded.code) : decoded.code;
      return failure('fault', `fault ${code}: ${decoded.message}`, { faultCode: decoded.code });
    }
    return { ok: true, value: decoded.value, ...counters() };
  } catch (err) {
    if (timedOut) return failure('timeout', deadlineDetail());
    if (req.signal?.aborted) return failure('connection', 'cancelled by the meta-server before the answer was complete (it is stopping or the job was withdrawn)');
    if (isAnswerFormatError(err)) return failure('protocol', err.message);
    const described = describeTransportError(err, current, headersSeen, bytesReceived);
    if (described.kind !== 'connection' || !described.beforeConnect) bytesSent = bodyBytes;
    return failure(described.kind, polling ? `${described.detail} (when polling ${polling.location} for the asynchronous answer)` : described.detail);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCancel);
  }
}
