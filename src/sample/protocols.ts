// The sample annotator behind the JSON and PubAnnotation protocols (dispatch/annotators/),
// so a team has a template for each: plain JSON answers the same struct as XML-RPC;
// PubAnnotation answers its JSON (denotations for the mentions), synchronously or — with
// `async` — as PubAnnotation's asynchronous API has it: 303 See Other to a result URL, which
// answers 404 with Retry-After until the result is ready, 200 with it once, 410 Gone after.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { annotate } from './annotator.ts';
import { codePointLength } from '../shared/code-points.ts';

export type SampleProtocol = 'xmlrpc' | 'json' | 'pubannotation';

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

/** The request's parameters: a JSON object, or form fields (`curl -d text=…`, as PubAnnotation's examples send). */
function paramsOf(req: IncomingMessage, body: Buffer): Record<string, unknown> | string {
  const type = req.headers['content-type'] ?? '';
  if (/application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    return 'the body must be a JSON object {"text": …}';
  } catch (err) {
    return `the body is not valid JSON: ${(err as Error).message}`;
  }
}

/** PubAnnotation JSON for the sample annotator's mentions: spans in code points, confidence and ids as attributes. */
export function pubAnnotationOf(text: string, params: Record<string, unknown>): Record<string, unknown> {
  const mentions = annotate(text).mentions as Array<{ offset: number; mention: string; type: string; ids?: string[]; confidence: number }>;
  // Ids as PubAnnotation serves PubTator's: an attribute pubann:denotes per id.
  const ids = mentions.flatMap((m, i) => (m.ids ?? []).map((id) => ({ subj: `T${i + 1}`, pred: 'pubann:denotes', obj: id })));
  return {
    ...params, // the request's other fields come back as they were, as the API asks
    text,
    denotations: mentions.map((m, i) => ({
      id: `T${i + 1}`,
      span: { begin: m.offset, end: m.offset + codePointLength(m.mention) },
      obj: m.type,
    })),
    attributes: [
      ...mentions.map((m, i) => ({ id: `A${i + 1}`, subj: `T${i + 1}`, pred: 'confidence', obj: m.confidence })),
      ...ids.map((a, k) => ({ id: `A${mentions.length + k + 1}`, ...a })),
    ],
  };
}

/** Answers one request in the JSON or PubAnnotation protocol. */
export class JsonSampleHandler {
  private readonly results = new Map<number, Record<string, unknown>>();
  private issued = 0;

  constructor(
    private readonly protocol: Exclude<SampleProtocol, 'xmlrpc'>,
    private readonly async: boolean,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const result = /^\/results\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && result && this.async) return this.deliver(res, Number(result[1]));
    if (req.method !== 'POST') return sendJson(res, 405, { error: `POST a JSON object {"text": …} to annotate it` }, { allow: 'POST' });
    const params = paramsOf(req, body);
    if (typeof params === 'string') return sendJson(res, 400, { error: params });
    if (typeof params.text !== 'string') return sendJson(res, 400, { error: 'the request needs "text", a string' });
    const given = typeof params.given === 'string' ? params.given : '';
    if (this.protocol === 'json') return sendJson(res, 200, annotate(params.text, given));
    const { text: _text, ...others } = params;
    const answer = pubAnnotationOf(params.text, others);
    if (!this.async) return sendJson(res, 200, answer);
    // Asynchronous: the result waits at its own URL; the client polls it.
    const id = ++this.issued;
    this.results.set(id, answer);
    res.writeHead(303, { location: `/results/${id}`, 'retry-after': '0', 'content-length': 0 });
    res.end();
  }

  private deliver(res: ServerResponse, id: number): void {
    const answer = this.results.get(id);
    if (answer) {
      this.results.delete(id); // delivered once; asked again, it is gone
      return sendJson(res, 200, answer);
    }
    if (id >= 1 && id <= this.issued) return sendJson(res, 410, { error: `result ${id} was delivered and removed` });
    return sendJson(res, 404, { error: `result ${id} is not ready` }, { 'retry-after': '1' });
  }
}
