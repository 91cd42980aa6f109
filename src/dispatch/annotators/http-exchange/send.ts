// Step: send one request to where the exchange is (progress.at) and wait for its response
// headers, under the call's deadline (its signal) — sent once more if it went out on a
// kept-alive connection the server had already closed.
import { request, type Dispatcher } from 'undici';
import { closedWhileKeptAlive } from '../transport-errors.ts';
import { notingConnection, untilAborted } from './connecting.ts';
import type { Progress } from './progress.ts';

/** What every request of one call carries: the article (POST), what is accepted, and how it goes out. */
export interface Outgoing {
  body: string | Buffer;
  contentType: string;
  accept?: string;
  dispatcher: Dispatcher;
  /** The deadline's signal (deadline.ts). */
  signal: AbortSignal;
}

/** The article is POSTed; an asynchronous answer's Location is polled with GET. */
export type Method = 'POST' | 'GET';

export async function send(outgoing: Outgoing, method: Method, progress: Progress): Promise<Dispatcher.ResponseData> {
  progress.headersSeen = false;
  progress.connected = false;
  const headers: Record<string, string> = { 'user-agent': 'metaserver' };
  if (method === 'POST') headers['content-type'] = outgoing.contentType;
  if (outgoing.accept) headers.accept = outgoing.accept;
  const options = {
    method,
    headers,
    body: method === 'POST' ? outgoing.body : undefined,
    signal: outgoing.signal,
    dispatcher: notingConnection(outgoing.dispatcher, progress),
    headersTimeout: 0,
    bodyTimeout: 0,
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await untilAborted(request(progress.at, options), outgoing.signal);
  } catch (err) {
    // A server that closes each connection after its answer without saying so
    // (Frontier::Daemon) leaves a kept-alive connection that is already closed when the
    // next call goes out: that call never reached it, so it is sent once more, on a new
    // connection. Sending an article twice is harmless (dispatch is at-least-once anyway).
    if (outgoing.signal.aborted || !closedWhileKeptAlive(err)) throw err;
    response = await untilAborted(request(progress.at, options), outgoing.signal);
  }
  progress.headersSeen = true;
  if (method === 'POST') progress.bytesSent = progress.bodyBytes;
  return response;
}
