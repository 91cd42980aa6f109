// The HTTP client of the commands that talk to a running meta-server (`import`, `export`,
// `testsuite run`): through its public API (so they work against a remote deployment,
// with the same access rules as any script), never to its database.
import { request } from 'undici';

export interface ApiTarget {
  url: string;
  token: string;
}

/** A failed call: `status` is the HTTP status (absent when the server was not reached), `details` the error's. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

/** The methods the commands call with (mark-scored changes marks with PUT and PATCH). */
type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/** --url / --token, else METASERVER_URL / METASERVER_ADMIN_TOKEN; the URL defaults to the local server. */
export function apiTarget(opts: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const url = (opts.url ?? env.METASERVER_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const token = opts.token ?? env.METASERVER_ADMIN_TOKEN ?? '';
  return { url, token };
}

/** The call's JSON answer. */
export async function callApi<T>(target: ApiTarget, method: ApiMethod, path: string, body?: unknown): Promise<T> {
  const text = await callApiText(target, method, path, body);
  try {
    return (text === '' ? undefined : JSON.parse(text)) as T;
  } catch {
    throw new ApiCallError(`${method} ${path} answered something that is not JSON: ${text.slice(0, 200)}`);
  }
}

/** The call's answer as text (TSV reports); an error answer (HTTP 4xx/5xx) throws ApiCallError with its message. */
export async function callApiText(target: ApiTarget, method: ApiMethod, path: string, body?: unknown): Promise<string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await request(`${target.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiCallError(`cannot reach the meta-server at ${target.url}: ${(err as Error).message}`);
  }
  const text = await res.body.text();
  if (res.statusCode >= 400) {
    let error: { message?: string; details?: unknown } | undefined;
    try {
      error = (JSON.parse(text) as { error?: { message?: string; details?: unknown } }).error;
    } catch {
      // not a JSON error body: the start of what came back is shown
    }
    throw new ApiCallError(
      `${method} ${path} answered HTTP ${res.statusCode}: ${error?.message ?? text.slice(0, 500)}`,
      res.statusCode,
      error?.details,
    );
  }
  return text;
}

/** The call's answer as bytes (a backup); an error answer throws ApiCallError as callApiText does. */
export async function callApiBytes(target: ApiTarget, method: 'GET' | 'POST', path: string): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  let res;
  try {
    res = await request(`${target.url}${path}`, { method, headers });
  } catch (err) {
    throw new ApiCallError(`cannot reach the meta-server at ${target.url}: ${(err as Error).message}`);
  }
  const bytes = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode >= 400) {
    let message: string | undefined;
    try {
      message = (JSON.parse(bytes.toString('utf8')) as { error?: { message?: string } }).error?.message;
    } catch {
      // not a JSON error body
    }
    throw new ApiCallError(
      `${method} ${path} answered HTTP ${res.statusCode}: ${message ?? bytes.subarray(0, 500).toString('utf8')}`,
      res.statusCode,
    );
  }
  return bytes;
}

/**
 * The call's answer as a stream (a streamed export), asked gzip-compressed for the
 * transfer: its body, whether it came compressed, and its headers. An error answer throws
 * ApiCallError as callApiText does.
 */
export async function callApiStream(
  target: ApiTarget,
  path: string,
): Promise<{ body: NodeJS.ReadableStream; gzipped: boolean; headers: Record<string, string | string[] | undefined> }> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip' };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  let res;
  try {
    res = await request(`${target.url}${path}`, { method: 'GET', headers });
  } catch (err) {
    throw new ApiCallError(`cannot reach the meta-server at ${target.url}: ${(err as Error).message}`);
  }
  if (res.statusCode >= 400) {
    const text = await res.body.text();
    let message = text.slice(0, 500);
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not a JSON error body: the start of what came back is shown
    }
    throw new ApiCallError(`GET ${path} answered HTTP ${res.statusCode}: ${message}`, res.statusCode);
  }
  return { body: res.body, gzipped: res.headers['content-encoding'] === 'gzip', headers: res.headers };
}
