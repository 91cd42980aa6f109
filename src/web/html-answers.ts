// How the web routes answer: HTML under the headers every page and fragment carries, and
// the JSON API asked in-process with the caller's own Authorization header, so a fragment
// shows only what the API would show that caller; an API's refusal becomes an alert.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from './html.ts';

/** The pages hold a token in localStorage: no foreign script, style or connection may run. */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** A fragment (a piece of a page the page script loads), with the status it answers. */
export const sendFragment = (reply: FastifyReply, status: number, body: SafeHtml) =>
  reply.status(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(body.value);

/** An answer of the API that says what was asked for: 200, or 202 while servers are still working. */
export const answered = (status: number) => status === 200 || status === 202;

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The API's refusal as an alert, with a hint when no valid token was sent. */
export function apiError(answer: ApiAnswer<unknown>): SafeHtml {
  const message = (answer.body as { error?: { message?: string } } | null)?.error?.message ?? `the API answered ${answer.status}`;
  const hint = answer.status === 401 ? ' Paste your token in the token box (on the team or organiser page).' : '';
  return html`<p class="error" role="alert">${message}${hint}</p>`;
}

/** The JSON API of this app, called in-process (no socket) through the web routes' own instance. */
export class InProcessApi {
  constructor(private readonly app: Pick<FastifyInstance, 'inject'>) {}

  /** The API's answer to a GET with the caller's credentials. */
  async get<T>(request: FastifyRequest, url: string): Promise<ApiAnswer<T>> {
    const authorization = request.headers.authorization;
    const res = await this.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
    let body: unknown = null;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      body = { error: { message: res.body.slice(0, 300) } };
    }
    return { status: res.statusCode, body: body as T };
  }

  /** The status of a HEAD sent without credentials: whether anybody may read the URL. */
  async publicStatus(url: string): Promise<number> {
    return (await this.app.inject({ method: 'HEAD', url })).statusCode;
  }
}
