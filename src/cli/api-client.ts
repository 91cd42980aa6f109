// The small HTTP client of the `import` and `export` commands: they talk to a running
// meta-server through its public API (so they work against a remote deployment, with the
// same access rules as any script), never to its database.
import { request } from 'undici';

export interface ApiTarget {
  url: string;
  token: string;
}

export class ApiCallError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ApiCallError';
  }
}

/** --url / --token, else METASERVER_URL / METASERVER_ADMIN_TOKEN; the URL defaults to the local server. */
export function apiTarget(opts: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const url = (opts.url ?? env.METASERVER_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const token = opts.token ?? env.METASERVER_ADMIN_TOKEN ?? '';
  return { url, token };
}

export async function callApi<T>(target: ApiTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (res.statusCode >= 400) {
    const message = (json as { error?: { message?: string } } | undefined)?.error?.message ?? text.slice(0, 500);
    throw new ApiCallError(`${method} ${path} answered HTTP ${res.statusCode}: ${message}`, res.statusCode);
  }
  return json as T;
}
