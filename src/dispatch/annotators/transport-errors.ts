// Turns the errors Node and undici raise during a call into a failure kind and a sentence
// a team can act on ("connection refused by 127.0.0.1:9 — is the server running?"). The
// same for every protocol: they all travel over HTTP (http-call.ts).
import { maxHeaderSize } from 'node:http';
import { errors } from 'undici';
import type { FailureKind } from './outcome.ts';

export interface DescribedError {
  kind: FailureKind;
  detail: string;
  /** True when nothing can have reached the server (refused, DNS, bad address). */
  beforeConnect: boolean;
}

/** "600 s", "0.3 s", "1.5 s": how deadlines appear in details. */
export function formatDuration(ms: number): string {
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
  for (
    let current: unknown = err;
    current && typeof current === 'object' && !seen.has(current);
    current = (current as { cause?: unknown }).cause
  ) {
    seen.add(current);
    if (current instanceof errors.HTTPParserError) return current;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('HPE_')) return current as Error;
  }
  return undefined;
}

/**
 * True when the connection was closed before any answer to this call, on a connection that
 * had already carried an answer: a kept-alive connection the server had closed.
 */
export function closedWhileKeptAlive(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET' && code !== 'EPIPE') return false;
  const seen = new Set<unknown>();
  for (
    let current: unknown = err;
    current && typeof current === 'object' && !seen.has(current);
    current = (current as { cause?: unknown }).cause
  ) {
    seen.add(current);
    const bytesRead = (current as { socket?: { bytesRead?: unknown } }).socket?.bytesRead;
    if (typeof bytesRead === 'number') return bytesRead > 0;
  }
  return false;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function describeTransportError(err: unknown, url: URL, headersSeen: boolean, bytesReceived: number): DescribedError {
  const where = url.host;
  const code = codeOf(err);
  const partial = headersSeen ? ` after ${bytesReceived} bytes of the answer` : ' before sending response headers';
  const parserError = parserErrorOf(err);
  if (parserError) {
    const named = (parserError as { code?: string }).code;
    const stage = headersSeen ? `in the body, after ${bytesReceived} bytes of it` : 'in the status line or headers';
    return {
      kind: 'protocol',
      detail: `the server at ${where} did not answer with valid HTTP ${stage}: ${named ? `${named}: ` : ''}${messageOf(parserError)}`,
      beforeConnect: false,
    };
  }
  switch (code) {
    case 'ERR_REFUSED_ADDRESS':
      return { kind: 'connection', detail: `the server URL cannot be called: ${messageOf(err)}; no request was made`, beforeConnect: true };
    case 'ECONNREFUSED':
      return {
        kind: 'connection',
        detail: `connection refused by ${where} — is the server running and listening on that port?`,
        beforeConnect: true,
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return {
        kind: 'connection',
        detail: `cannot resolve the host name "${url.hostname}" (DNS ${code}) — check the server URL`,
        beforeConnect: true,
      };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return {
        kind: 'connection',
        detail: `cannot reach ${where} (${code}) — check the address and any firewall between us`,
        beforeConnect: true,
      };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return {
        kind: 'connection',
        detail: `connecting to ${where} timed out (${code}) — is the host up and the port open to us?`,
        beforeConnect: true,
      };
    case 'ECONNRESET':
      return { kind: 'connection', detail: `the connection to ${where} was reset by the server${partial}`, beforeConnect: false };
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { kind: 'connection', detail: `the server at ${where} closed the connection${partial}`, beforeConnect: false };
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return {
        kind: 'protocol',
        detail: `the answer from ${where} was shorter or longer than its Content-Length header`,
        beforeConnect: false,
      };
    case 'UND_ERR_HEADERS_OVERFLOW':
      return {
        kind: 'protocol',
        detail: `the server at ${where} sent response headers larger than the ${maxHeaderSize} bytes an HTTP client reads (${code}): is it an HTTP server, and does it end its header lines with CR LF?`,
        beforeConnect: false,
      };
    case 'UND_ERR_INFO':
      return {
        kind: 'protocol',
        detail: `the server at ${where} sent an unexpected informational response: ${messageOf(err)}`,
        beforeConnect: false,
      };
    default:
      if (code?.startsWith('HPE_')) {
        return {
          kind: 'protocol',
          detail: `the server at ${where} did not answer with valid HTTP (${code}: ${messageOf(err)})`,
          beforeConnect: false,
        };
      }
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) {
        return {
          kind: 'connection',
          detail: `TLS handshake with ${where} failed (${code}) — check the server's certificate`,
          beforeConnect: true,
        };
      }
      return {
        kind: 'connection',
        detail: `the call to ${where} failed${partial}: ${code ? `${code}: ` : ''}${messageOf(err)}`,
        beforeConnect: false,
      };
  }
}
