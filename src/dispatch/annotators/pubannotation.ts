// PubAnnotation's annotation-server API (pubannotation.org, "Annotation server API"), as
// PubDictionaries, OGER-style services and other PubAnnotation annotators speak it:
//   POST application/json {"text": …} with Accept: application/json
//   → 200 and PubAnnotation JSON {text, denotations: [{id, span: {begin, end}, obj}], relations?}
//   → or, asynchronously, 303 See Other with Location (and optionally Retry-After): the
//     result is fetched there with GET; 404 (with Retry-After) means not ready yet, 200
//     delivers it, 410 Gone means it was removed and will not come.
// Denotations become MENTION items (`obj` → type), also those of a multi-track answer
// (pubannotation-answer.ts reads the answer). Spans count characters as PubAnnotation
// counts them — caret positions in the text, a Ruby string's characters — that is, Unicode
// code points, like every offset here; each span is checked against the text sent, and the
// mentions it makes go through the MENTION validator like any other (type, duplicates).
// Confidence, rank and section come from attributes {subj, pred, obj} on a denotation, as
// the PubAnnotation export writes them (formats/pubannotation.ts); concept ids from `obj`
// or id attributes. Relations between two denotations with ids are CREL's relations between
// their concepts (`pred` the type). Other relations, modifications, blocks and other
// attributes map to no task here: they are ignored, each with a warning.
import { crel } from '../../families/crel/index.ts';
import { mention } from '../../families/mention/index.ts';
import { parseJsonAnswer } from './json-body.ts';
import { mentionsOfPubAnnotation } from './pubannotation-answer.ts';
import { jsonArrayBatch } from './batch.ts';
import { defineProtocol, type DecodedAnswer, type RequestParts } from './types.ts';

const NAME = 'pubannotation';

// Only the text: PubAnnotation servers take no other part (a server asking for metadata
// gets the article's id as `sourceid`, which such servers echo back).
function encode(parts: RequestParts): string {
  return JSON.stringify(parts.meta ? { text: parts.text, sourceid: parts.meta.article } : { text: parts.text });
}

function decodeValue(answer: unknown, text: string): DecodedAnswer {
  const { value, errors, warnings, denotationOf } = mentionsOfPubAnnotation(answer, text);
  const renamePath = (path: string) =>
    path
      .replace(new RegExp(`^${mention.answerKey}\\[(\\d+)\\]`), (whole, k: string) => denotationOf[Number(k)] ?? whole)
      .replace(/^((?:tracks\[\d+\]\.)?denotations\[\d+\])\.offset$/, '$1.span')
      .replace(/^((?:tracks\[\d+\]\.)?denotations\[\d+\])\.type$/, '$1.obj');
  return { kind: 'value', value, errors, warnings, renamePath };
}

export const pubannotation = defineProtocol({
  name: NAME,
  label: 'PubAnnotation',
  summary:
    "PubAnnotation's annotation-server API: POST {text}, PubAnnotation JSON back (denotations → MENTION, relations between denotations with concept ids → CREL), synchronous or asynchronous (303 See Other, polled)",
  // Denotations are mentions, and relations between denotations with ids relations between concepts.
  tasks: [mention.name, crel.name],
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
      detail: (location) =>
        `the result at ${location} is gone (410 Gone): the server removed it before it was fetched; the article is sent again if attempts remain`,
    },
  },
  encode,
  decode: (body, charset, text) => decodeValue(parseJsonAnswer(body, charset, NAME), text),
  // The `_docs_` payload: an array of {text[, sourceid]}, answered by an array of PubAnnotation JSON.
  batch: jsonArrayBatch(NAME, encode, decodeValue),
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
