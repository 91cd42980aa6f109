// One XML-RPC call to one annotation server, with ONE deadline covering connect, send,
// wait and receive, and a cap on the answer size. undici's own timeouts (300 s for
// headers and body, 10 s for connect) are switched off so they never cut a 600 s deadline
// short; at our deadline the request is aborted, which closes the connection.
// `callXmlRpc` never throws: every failure comes back classified with a detail a team can
// act on, plus timings and byte counts for the reliability figures.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, errors, request, type buildConnector, type Dispatcher } from 'undici';
import { decodeMethodResponse, type XmlRpcValue } from './codec.ts';
import { XmlRpcProtocolError } from './errors.ts';

export type FailureKind = 'timeout' | 'connection' | 'http' | 'protocol' | 'fault';

export interface CallRequest<V = XmlRpcValue> {
  url: string;
  body: string | Buffer;
  deadlineMs: number;
  maxResponseBytes: number;
  /** Cancels the call (e.g. the worker is shutting down); reported as a `connection` failure whose detail starts with "cancelled". */
  signal?: AbortSignal;
  /**
   * Reads a complete answer body; throws XmlRpcProtocolError for one that is not a valid
   * answer. Default: decodeMethodResponse, here. Dispatch reads big answers off the event
   * loop with it (dispatch/answer-reader.ts). The deadline no longer runs while it works.
   * `charset` is the one named in the answer's Content-Type, for a document that declares none.
   */
  decode?: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>;
}

/** A decoded answer: a value (whatever `decode` makes of it), or a fault. */
export type Decoded<V> = { kind: 'value'; value: V } | { kind: 'fault'; code: number | string; message: string };

interface Counters {
  ms: number;
  bytesSent: number;
  bytesReceived: number;
}

export type CallOutcome<V = XmlRpcValue> =
  | ({ ok: true; value: V } & Counters)
  | ({ ok: false; kind: FailureKind; detail: string; httpStatus?: number; faultCode?: number | string } & Counters);

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

// Turns the errors Node and undici raise during a call into a failure kind and a sentence
// a team can act on ("connection refused by 127.0.0.1:9 — is the server running?").
interface DescribedError {
  kind: FailureKind;
  detail: string;
  /** True when nothing can have reached the server (refused, DNS, bad address). */
  beforeConnect: boolean;
}

/** "600 s", "0.3 s", "1.5 s": how deadlines appear in details. */
function formatDuration(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function codeOf(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_CONNECT' && e.code !== 'UND_ERR') return e.code;
    current = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause;
  }
  return undefined;
}

/**
 * The HTTP parser's complaint, if that is what failed: undici's parser errors carry a
 * `code` only sometimes, so they are recognised by class (Node's own parser by HPE_ code).
 */
function parserErrorOf(err: unknown): Error | undefined {
  const seen = new Set<unknown>();
  for (let current: unknown = err; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (current instanceof errors.HTTPParserError) return current as Error;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('HPE_')) return current as Error;
  }
  return undefined;
}

/**
 * True when the connection was closed before any answer to this call, on a connection that
 * had already carried an answer: a kept-alive connection the server had closed.
 */
function closedWhileKeptAlive(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET' && code !== 'EPIPE') return false;
  const seen = new Set<unknown>();
  for (let current: unknown = err; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const bytesRead = (current as { socket?: { bytesRead?: unknown } }).socket?.bytesRead;
    if (typeof bytesRead === 'number') return bytesRead > 0;
  }
  return false;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function describeTransportError(err: unknown, url: URL, headersSeen: boolean, bytesReceived: number): DescribedError {
  const where = url.host;
  const code = codeOf(err);
  const partial = headersSeen ? ` after ${bytesReceived} bytes of the answer` : ' before sending response headers';
  const parserError = parserErrorOf(err);
  if (parserError) {
    const named = (parserError as { code?: string }).code;
    const stage = headersSeen ? `in the body, after ${bytesReceived} bytes of it` : 'in the status line or headers';
    return { kind: 'protocol', detail: `the server at ${where} did not answer with valid HTTP ${stage}: ${named ? `${named}: ` : ''}${messageOf(parserError)}`, beforeConnect: false };
  }
  switch (code) {
    case 'ERR_REFUSED_ADDRESS':
      return { kind: 'connection', detail: `the server URL cannot be called: ${messageOf(err)}; no request was made`, beforeConnect: true };
    case 'ECONNREFUSED':
      return { kind: 'connection', detail: `connection refused by ${where} — is the server running and listening on that port?`, beforeConnect: true };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return { kind: 'connection', detail: `cannot resolve the host name "${url.hostname}" (DNS ${code}) — check the server URL`, beforeConnect: true };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return { kind: 'connection', detail: `cannot reach ${where} (${code}) — check the address and any firewall between us`, beforeConnect: true };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { kind: 'connection', detail: `connecting to ${where} timed out (${code}) — is the host up and the port open to us?`, beforeConnect: true };
    case 'ECONNRESET':
      return { kind: 'connection', detail: `the connection to ${where} was reset by the server${partial}`, beforeConnect: false };
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { kind: 'connection', detail: `the server at ${where} closed the connection${partial}`, beforeConnect: false };
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return { kind: 'protocol', detail: `the answer from ${where} was shorter or longer than its Content-Length header`, beforeConnect: false };
    case 'UND_ERR_HEADERS_OVERFLOW':
      return { kind: 'protocol', detail: `the server at ${where} sent response headers larger than the ${maxHeaderSize} bytes an HTTP client reads (${code}): is it an HTTP server, and does it end its header lines with CR LF?`, beforeConnect: false };
    case 'UND_ERR_INFO':
      return { kind: 'protocol', detail: `the server at ${where} sent an unexpected informational response: ${messageOf(err)}`, beforeConnect: false };
    default:
      if (code?.startsWith('HPE_')) {
        return { kind: 'protocol', detail: `the server at ${where} did not answer with valid HTTP (${code}: ${messageOf(err)})`, beforeConnect: false };
      }
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) {
        return { kind: 'connection', detail: `TLS handshake with ${where} failed (${code}) — check the server's certificate`, beforeConnect: true };
      }
      return { kind: 'connection', detail: `the call to ${where} failed${partial}: ${code ? `${code}: ` : ''}${messageOf(err)}`, beforeConnect: false };
  }
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

function excerptOf(body: Buffer): string {
  const text = body.toString('utf8').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export async function callXmlRpc<V = XmlRpcValue>(req: CallRequest<V>, dispatcher?: Dispatcher): Promise<CallOutcome<V>> {
  const started = performance.now();
  const bodyBytes = typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.length;
  let bytesSent = 0;
  let bytesReceived = 0;
  let headersSeen = false;
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

  const deadlineDetail = (): string =>
    `no complete answer within the deadline of ${formatDuration(req.deadlineMs)} (` +
    (headersSeen ? `${bytesReceived} byte${bytesReceived === 1 ? '' : 's'} of the answer received so far)` : 'no response headers received)');

  try {
    const options = {
      method: 'POST' as const,
      headers: { 'content-type': 'text/xml; charset=utf-8', 'user-agent': 'metaserver' },
      body: req.body,
      signal: controller.signal,
      dispatcher: dispatcher ?? defaultAgent(),
      headersTimeout: 0,
      bodyTimeout: 0,
    };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(target, options);
    } catch (err) {
      // A server that closes each connection after its answer without saying so
      // (Frontier::Daemon) leaves a kept-alive connection that is already closed when the
      // next call goes out: that call never reached it, so it is sent once more, on a new
      // connection. Sending an article twice is harmless (dispatch is at-least-once anyway).
      if (controller.signal.aborted || !closedWhileKeptAlive(err)) throw err;
      response = await request(target, options);
    }
    headersSeen = true;
    bytesSent = bodyBytes;
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
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytesReceived += chunk.length;
      chunks.push(chunk);
      if (bytesReceived > limit) {
        overCap = true;
        break; // leaving the loop destroys the body stream
      }
    }
    const body = Buffer.concat(chunks);
    if (status !== 200) {
      controller.abort();
      const reason = STATUS_CODES[status] ?? 'unknown status';
      const shown = excerptOf(body.subarray(0, HTTP_EXCERPT_BYTES));
      return failure('http', `HTTP ${status} ${reason}${shown ? `: ${shown}` : ''} (an XML-RPC answer needs status 200)`, { httpStatus: status });
    }
    if (overCap) {
      controller.abort();
      return failure('protocol', `the answer exceeded the cap of ${limit} bytes and was cut off; send smaller answers or ask the organisers to raise the cap`);
    }
    receivedAt = performance.now();
    clearTimeout(timer); // the server is done: reading the answer is our time, not its
    const charset = charsetOf(response.headers['content-type']);
    const decoded = req.decode ? await req.decode(body, charset) : (decodeMethodResponse(body, { charset }) as Decoded<V>);
    if (decoded.kind === 'fault') {
      const code = typeof decoded.code === 'string' ? JSON.stringify(decoded.code) : decoded.code;
      return failure('fault', `fault ${code}: ${decoded.message}`, { faultCode: decoded.code });
    }
    return { ok: true, value: decoded.value, ...counters() };
  } catch (err) {
    if (timedOut) return failure('timeout', deadlineDetail());
    if (req.signal?.aborted) return failure('connection', 'cancelled by the meta-server before the answer was complete (it is stopping or the job was withdrawn)');
    if (err instanceof XmlRpcProtocolError) return failure('protocol', err.message);
    const described = describeTransportError(err, target, headersSeen, bytesReceived);
    if (described.kind !== 'connection' || !described.beforeConnect) bytesSent = bodyBytes;
    return failure(described.kind, described.detail);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCancel);
  }
}
