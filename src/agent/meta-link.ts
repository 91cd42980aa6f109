// The agent's calls to the meta-server's lease routes (src/pull/routes.ts). A failure to
// reach it (or a 5xx/429, which pass) is a LinkDownError: the agent waits and tries again;
// any other error answer is told as the meta-server worded it.
import { Agent, request } from 'undici';
import type { LeaseReceipt } from '../pull/lease-answer.ts';
import type { AnswerReceipt, LeaseOffer } from '../pull/lease-service.ts';

// The lease routes' wire shapes, written once where the meta-server makes them.
export type { LeaseArticle, LeaseReceipt } from '../pull/lease-answer.ts';
export type { AnswerReceipt, LeaseOffer } from '../pull/lease-service.ts';

/** The meta-server is down, restarting or refusing for now: try again after a back-off. */
export class LinkDownError extends Error {
  override readonly name = 'LinkDownError';
}

/** An error answer that trying again will not change (a wrong token or server id). */
export class LinkRefusedError extends Error {
  override readonly name = 'LinkRefusedError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** TLS errors that mean "this machine does not trust the meta-server's certificate": trying again will not help by itself. */
const UNTRUSTED_CERT = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** What a transport error says, with what to do about a certificate this machine does not trust. */
function transportMessage(err: Error): string {
  const codeOf = (e: unknown) => (e && typeof e === 'object' && 'code' in e ? String(e.code) : undefined);
  const code = codeOf(err) ?? codeOf(err.cause);
  if (code && UNTRUSTED_CERT.has(code))
    return `${err.message} (${code}): the meta-server's certificate is not trusted here; if it is signed by your organisation's own authority, set NODE_EXTRA_CA_CERTS=/path/to/that-ca.pem for the agent`;
  return err.message;
}

export interface MetaTarget {
  url: string;
  token: string;
  serverId: number;
}

export class MetaLink {
  /** Long-polls hold a connection each; answers get their own. */
  private readonly dispatcher: Agent;

  constructor(
    private readonly target: MetaTarget,
    connections: number,
  ) {
    this.dispatcher = new Agent({ connections: connections * 2 + 2, headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 4_000 });
  }

  private async call(path: string, body: unknown, signal?: AbortSignal, method = 'POST'): Promise<{ status: number; json: unknown }> {
    let res;
    try {
      res = await request(`${this.target.url}${path}`, {
        method: method as 'POST' | 'GET',
        dispatcher: this.dispatcher,
        headers: {
          authorization: `Bearer ${this.target.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      throw new LinkDownError(`cannot reach the meta-server at ${this.target.url}: ${transportMessage(err as Error)}`);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new LinkDownError(`the meta-server's answer was cut off: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.statusCode >= 500 || res.statusCode === 429)
      throw new LinkDownError(`the meta-server answered HTTP ${res.statusCode}: ${errorOf(json)?.message ?? text.slice(0, 200)}`);
    return { status: res.statusCode, json };
  }

  private refused(path: string, status: number, json: unknown): LinkRefusedError {
    const error = errorOf(json);
    return new LinkRefusedError(
      `POST ${path} answered HTTP ${status}: ${error?.message ?? 'no message'}`,
      status,
      error?.code ?? '',
      error?.details,
    );
  }

  /** A lease (taken with keep-alive: see keep-alive.ts), or null when there was no work within waitSeconds. */
  async take(waitSeconds: number, signal?: AbortSignal): Promise<LeaseOffer | null> {
    const path = `/api/servers/${this.target.serverId}/leases?wait=${waitSeconds}&keepAlive=1`;
    const { status, json } = await this.call(path, undefined, signal);
    if (status === 204) return null;
    if (status !== 200) throw this.refused(path, status, json);
    return json as LeaseOffer;
  }

  /**
   * What the meta-server made of the answer; a refusal (422, 409) comes back as a
   * LinkRefusedError with the receipt in details. With `next`, a stored answer's receipt
   * carries the next lease when there is work (taken as take's, with keep-alive).
   */
  async answer(lease: string, answer: unknown, next = false): Promise<AnswerReceipt> {
    const path = `/api/leases/${lease}/answer${next ? '?next=1' : ''}`;
    const { status, json } = await this.call(path, answer);
    if (status !== 200) throw this.refused(path, status, json);
    return json as AnswerReceipt;
  }

  async fail(lease: string, message: string): Promise<LeaseReceipt> {
    const path = `/api/leases/${lease}/fail`;
    const { status, json } = await this.call(path, { message: message.slice(0, 4000) || 'the server failed' });
    if (status !== 200) throw this.refused(path, status, json);
    return json as LeaseReceipt;
  }

  async release(lease: string): Promise<void> {
    const path = `/api/leases/${lease}/release`;
    const { status, json } = await this.call(path, undefined);
    if (status !== 204) throw this.refused(path, status, json);
  }

  /** Renews the leases held (and says whether the team's server answers); answers the ids still held. */
  async renew(leases: string[], localServer?: { state: 'up' | 'down'; detail?: string }): Promise<string[]> {
    const path = `/api/servers/${this.target.serverId}/leases/renew`;
    const body = { leases, ...(localServer ? { localServer: { ...localServer, detail: localServer.detail?.slice(0, 1000) } } : {}) };
    const { status, json } = await this.call(path, body);
    if (status !== 200) throw this.refused(path, status, json);
    return (json as { held: string[] }).held;
  }

  /** The server as registered (its concurrency, the limit across all its agents). */
  async server(): Promise<{ concurrency: number; name?: string }> {
    const path = `/api/servers/${this.target.serverId}`;
    const { status, json } = await this.call(path, undefined, undefined, 'GET');
    if (status !== 200) throw this.refused(path, status, json);
    return json as { concurrency: number; name?: string };
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => {});
  }
}

function errorOf(json: unknown): { code?: string; message?: string; details?: unknown } | undefined {
  if (json && typeof json === 'object' && 'error' in json)
    return (json as { error: { code?: string; message?: string; details?: unknown } }).error;
  return undefined;
}
