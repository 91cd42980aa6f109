// Steps: read a body — one that is not the answer (a redirect's, a "not ready" poll's) up
// to an excerpt, the answer up to the size cap — then judge the answer by its status and
// decode it in the protocol's terms.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { Decoded } from '../outcome.ts';
import type { Deadline } from './deadline.ts';
import type { Progress, Step } from './progress.ts';

/** How much of a body that is not the answer is read: enough for an excerpt in a detail. */
const EXCERPT_BYTES = 2048;

type Response = Dispatcher.ResponseData;

/** A complete answer body (status 200, within the cap), and the charset its Content-Type names. */
export interface AnswerBody {
  body: Buffer;
  charset: string | undefined;
}

/** What reading an answer needs of the call. */
export interface AnswerRules {
  maxResponseBytes: number;
  /** What the protocol needs of a status, for an unexpected one. */
  expects: string;
}

/** The charset parameter of a Content-Type header, if any. */
function charsetOf(contentType: string | string[] | undefined): string | undefined {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(value)?.[1] : undefined;
}

function excerptOf(body: Buffer): string {
  const text = body
    .toString('utf8')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Reads a body until it ends or passes `limit` bytes (then stops: leaving the loop destroys the stream). */
async function readUpTo(response: Response, limit: number, progress: Progress): Promise<{ body: Buffer; overLimit: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    progress.bytesReceived += chunk.length;
    size += chunk.length;
    chunks.push(chunk);
    if (size > limit) return { body: Buffer.concat(chunks), overLimit: true };
  }
  return { body: Buffer.concat(chunks), overLimit: false };
}

/** Reads a body that is not the answer (a redirect's, a "not ready"), up to the excerpt size. */
export async function drain(response: Response, progress: Progress): Promise<Buffer> {
  return (await readUpTo(response, EXCERPT_BYTES, progress)).body;
}

/**
 * The answer's body, or why it is refused: a status other than 200 (with an excerpt of
 * what the server said) or a body over the cap. The cap is on this body alone, whatever an
 * asynchronous exchange read before it. When the whole answer is in, the deadline stops:
 * decoding it is our time, not the server's.
 */
export async function readAnswer(
  response: Response,
  rules: AnswerRules,
  deadline: Deadline,
  progress: Progress,
): Promise<Step<AnswerBody>> {
  const status = response.statusCode;
  const limit = status === 200 ? rules.maxResponseBytes : EXCERPT_BYTES;
  const declared = Number(response.headers['content-length']);
  if (status === 200 && Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    deadline.abort();
    const detail = `the answer exceeded the cap of ${limit} bytes (it announced ${declared} bytes); send smaller answers or ask the organisers to raise the cap`;
    return { ok: false, failure: { kind: 'protocol', detail } };
  }
  const { body, overLimit } = await readUpTo(response, limit, progress);
  if (status !== 200) {
    deadline.abort();
    const reason = STATUS_CODES[status] ?? 'unknown status';
    const shown = excerptOf(body.subarray(0, EXCERPT_BYTES));
    const where = progress.polling ? ` when polling ${progress.at.href}` : '';
    return {
      ok: false,
      failure: {
        kind: 'http',
        detail: `HTTP ${status} ${reason}${where}${shown ? `: ${shown}` : ''} (${rules.expects})`,
        httpStatus: status,
      },
    };
  }
  if (overLimit) {
    deadline.abort();
    return {
      ok: false,
      failure: {
        kind: 'protocol',
        detail: `the answer exceeded the cap of ${limit} bytes and was cut off; send smaller answers or ask the organisers to raise the cap`,
      },
    };
  }
  progress.receivedAt = performance.now();
  deadline.stop();
  return { ok: true, value: { body, charset: charsetOf(response.headers['content-type']) } };
}

/**
 * The answer as the protocol reads it: its value, or its fault as a `fault` failure. A
 * body the protocol cannot read throws AnswerFormatError (the call's catch classifies it).
 */
export async function decodeAnswer<V>(
  decode: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>,
  answer: AnswerBody,
): Promise<Step<V>> {
  const decoded = await decode(answer.body, answer.charset);
  if (decoded.kind === 'value') return { ok: true, value: decoded.value };
  const code = typeof decoded.code === 'string' ? JSON.stringify(decoded.code) : decoded.code;
  return { ok: false, failure: { kind: 'fault', detail: `fault ${code}: ${decoded.message}`, faultCode: decoded.code } };
}
