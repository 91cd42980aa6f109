// PubAnnotation's annotation-server API (pubannotation.org, "Annotation server API"), as
// PubDictionaries, OGER-style services and other PubAnnotation annotators speak it:
//   POST application/json {"text": …} with Accept: application/json
//   → 200 and PubAnnotation JSON {text, denotations: [{id, span: {begin, end}, obj}], relations?}
//   → or, asynchronously, 303 See Other with Location (and optionally Retry-After): the
//     result is fetched there with GET; 404 (with Retry-After) means not ready yet, 200
//     delivers it, 410 Gone means it was removed and will not come.
// Denotations become MENTION items (`obj` → type). Spans count characters as PubAnnotation
// counts them — caret positions in the text, a Ruby string's characters — that is, Unicode
// code points, like every offset here; each span is checked against the text sent, and the
// mentions it makes go through the MENTION validator like any other (type, duplicates).
// Confidence, rank and section come from attributes {subj, pred, obj} on a denotation, as
// the PubAnnotation export writes them (formats/pubannotation.ts). Relations map to no task
// here: they are ignored, with a warning.
import { mention } from '../../families/mention/index.ts';
import { CodePointText } from '../../shared/code-points.ts';
import type { ValidationIssue } from '../../tasks/types.ts';
import { parseJsonAnswer } from './json-body.ts';
import { defineProtocol } from './types.ts';

const NAME = 'pubannotation';
const ATTRIBUTES = new Set(['confidence', 'rank', 'section']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Where two texts first differ, in code points. */
function firstDifference(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** PubAnnotation JSON → the answer struct {mentions: […]}, with what was wrong on the way. */
export function mentionsOfPubAnnotation(doc: unknown, sent: string) {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (!isObject(doc)) {
    errors.push({ path: '(answer)', message: 'expected a PubAnnotation JSON object {text, denotations: [{id, span: {begin, end}, obj}]}' });
    return { value: {}, errors, warnings, denotationOf: [] as number[] };
  }
  if (typeof doc.text === 'string' && doc.text !== sent) {
    const at = firstDifference(doc.text, sent);
    errors.push({ path: 'text', message: `the answer's text differs from the text sent (first at character ${at}): spans must refer to the text exactly as sent` });
  }
  const denotations = doc.denotations ?? [];
  if (!Array.isArray(denotations)) {
    errors.push({ path: 'denotations', message: 'expected an array of denotations [{id, span: {begin, end}, obj}]' });
    return { value: {}, errors, warnings, denotationOf: [] as number[] };
  }
  if (Array.isArray(doc.relations) && doc.relations.length > 0) {
    warnings.push({ path: 'relations', message: `${doc.relations.length} relation${doc.relations.length === 1 ? '' : 's'} ignored: no task of this challenge reads relations` });
  }
  // Attributes by the denotation they qualify.
  const attributes = new Map<string, Record<string, unknown>>();
  for (const a of Array.isArray(doc.attributes) ? doc.attributes : []) {
    if (!isObject(a) || typeof a.subj !== 'string' || typeof a.pred !== 'string' || !ATTRIBUTES.has(a.pred)) continue;
    const own = attributes.get(a.subj) ?? {};
    own[a.pred] = a.obj;
    attributes.set(a.subj, own);
  }
  const text = new CodePointText(sent);
  const mentions: Record<string, unknown>[] = [];
  /** The denotation each mention came from, for the validators' messages. */
  const denotationOf: number[] = [];
  denotations.forEach((d, i) => {
    const path = `denotations[${i}]`;
    if (!isObject(d) || !isObject(d.span)) {
      errors.push({ path, message: 'expected {id, span: {begin, end}, obj}' });
      return;
    }
    const { begin, end } = d.span;
    if (!isIndex(begin) || !isIndex(end)) {
      errors.push({ path: `${path}.span`, message: `begin and end must be whole numbers ≥ 0 (character positions in the text), got ${JSON.stringify(d.span).slice(0, 80)}` });
      return;
    }
    if (end <= begin) {
      errors.push({ path: `${path}.span`, message: `the span [${begin}, ${end}) is empty or reversed; end must be greater than begin` });
      return;
    }
    if (end > text.length) {
      errors.push({ path: `${path}.span`, message: `the span [${begin}, ${end}) runs past the end of the text (${text.length} characters, counted as code points)` });
      return;
    }
    if (d.obj !== undefined && typeof d.obj !== 'string') {
      errors.push({ path: `${path}.obj`, message: `expected the type as a string, got ${JSON.stringify(d.obj).slice(0, 60)}` });
      return;
    }
    const extra = typeof d.id === 'string' ? (attributes.get(d.id) ?? {}) : {};
    mentions.push({ offset: begin, mention: text.slice(begin, end), ...(d.obj !== undefined ? { type: d.obj } : {}), ...extra });
    denotationOf.push(i);
  });
  return { value: { [mention.answerKey]: mentions }, errors, warnings, denotationOf };
}

export const pubannotation = defineProtocol({
  name: NAME,
  label: 'PubAnnotation',
  summary: "PubAnnotation's annotation-server API: POST {text}, PubAnnotation JSON back (denotations → MENTION), synchronous or asynchronous (303 See Other, polled)",
  // Denotations are mentions: the one family this protocol can answer.
  tasks: [mention.name],
  usesMethod: false,
  contentType: 'application/json; charset=utf-8',
  accept: 'application/json',
  expects: 'a PubAnnotation answer needs status 200, or 303 See Other with a Location for an asynchronous one',
  polling: {
    notReady: [404],
    defaultWaitMs: 1_000,
    minWaitMs: 100,
    gone: {
      status: 410,
      kind: 'fault',
      detail: (location) => `the result at ${location} is gone (410 Gone): the server removed it before it was fetched; the article is sent again if attempts remain`,
    },
  },
  encode(parts) {
    // Only the text: PubAnnotation servers take no other part (a server asking for
    // metadata gets the article's id as `sourceid`, which such servers echo back).
    return JSON.stringify(parts.meta ? { text: parts.text, sourceid: parts.meta.article } : { text: parts.text });
  },
  decode(body, charset, text) {
    const { value, errors, warnings, denotationOf } = mentionsOfPubAnnotation(parseJsonAnswer(body, charset, NAME), text);
    const renamePath = (path: string) => path.replace(new RegExp(`^${mention.answerKey}\\[(\\d+)\\]`), (_, k: string) => `denotations[${denotationOf[Number(k)] ?? k}]`).replace(/^(denotations\[\d+\])\.offset$/, '$1.span').replace(/^(denotations\[\d+\])\.type$/, '$1.obj');
    return { kind: 'value', value, errors, warnings, renamePath };
  },
  hint(call) {
    if (call.kind === 'http' && (call.httpStatus === 400 || call.httpStatus === 415)) {
      return ' — the meta-server POSTs Content-Type: application/json {"text": …} with Accept: application/json, one of the requests the annotation-server API lists; does the server take a JSON body?';
    }
    if (call.kind === 'http' && call.httpStatus === 405) {
      return ' — the meta-server POSTs the text (a GET with ?text= is not used: articles are too long for a URL); does the server accept POST?';
    }
    if (call.kind === 'http' && call.httpStatus === 503) {
      return ' — the server says it is busy (503 Service Unavailable); the article is sent again after the back-off if attempts remain';
    }
    return '';
  },
});
