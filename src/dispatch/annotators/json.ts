// Plain JSON: POST application/json {"text", "given"?, "article"?, "tasks"?} (the same
// optional parts as the XML-RPC call), answered with 200 and a JSON object holding the
// same keys and shapes as the XML-RPC answer struct, read by the same validators. A
// server that fails says so with {"error": {"code"?, "message"}} (or {"error": "…"}): the
// JSON form of an XML-RPC fault. A server registered with batchSize > 1 is sent a JSON array
// of such objects and answers an array of answers, in the same order (batch.ts).
import { parseJsonAnswer } from './json-body.ts';
import { jsonArrayBatch } from './batch.ts';
import { defineProtocol, type DecodedAnswer, type FaultAnswer, type RequestParts } from './types.ts';

const NAME = 'json';

/** {"error": …} as a fault, when it is the answer's only key. */
function faultOf(value: unknown): FaultAnswer | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'error') return undefined;
  const error = (value as { error: unknown }).error;
  if (typeof error === 'string') return { kind: 'fault', code: 0, message: error };
  if (error && typeof error === 'object') {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return {
      kind: 'fault',
      code: typeof code === 'number' || typeof code === 'string' ? code : 0,
      message: typeof message === 'string' ? message : JSON.stringify(error).slice(0, 500),
    };
  }
  return undefined;
}

function encode(parts: RequestParts): string {
  const body: Record<string, unknown> = { text: parts.text };
  if (parts.given !== undefined) body.given = parts.given;
  if (parts.meta) {
    body.article = parts.meta.article;
    body.tasks = parts.meta.tasks;
  }
  return JSON.stringify(body);
}

const decodeValue = (value: unknown): DecodedAnswer => faultOf(value) ?? { kind: 'value', value };

export const json = defineProtocol({
  name: NAME,
  label: 'JSON',
  summary: "POST application/json {text, given?, article?, tasks?} answered by a JSON object with the XML-RPC answer's keys",
  usesMethod: false,
  contentType: 'application/json; charset=utf-8',
  accept: 'application/json',
  expects: 'a JSON answer needs status 200',
  encode,
  decode: (body, charset) => decodeValue(parseJsonAnswer(body, charset, NAME)),
  // A JSON array of those objects, answered by an array of answers (or {"error": …} for all).
  batch: jsonArrayBatch(NAME, encode, decodeValue, faultOf),
  hint(call) {
    if (call.kind === 'http' && (call.httpStatus === 400 || call.httpStatus === 415)) {
      return ' — the meta-server POSTs Content-Type: application/json with a JSON object {"text": …}; does the server read a JSON body (not form parameters)?';
    }
    if (call.kind === 'http' && call.httpStatus === 303) {
      return ' — a server that answers asynchronously (303 See Other, then polling) is registered with protocol "pubannotation"';
    }
    return '';
  },
});
