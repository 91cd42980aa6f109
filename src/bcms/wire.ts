// A stored, normalised answer turned back into the wire form of the annotation-server
// protocol — what a BCMS client would have received from the server itself: one member
// per task, under its family's answer key, in its family's wire form (src/families/*).
// Confidences always go out as <double>, 1.0 included (BCMS documented them as floats and
// Java clients cast them to Double); ranks, taxids and offsets as <int>.
import { ALL_FAMILIES, type AnswerResult } from '../families/registry.ts';
import type { EncodableValue } from '../xmlrpc/codec.ts';

type WireStruct = { [member: string]: EncodableValue | undefined };

export function answerToWire(result: AnswerResult): WireStruct {
  const wire: WireStruct = {};
  for (const family of ALL_FAMILIES) {
    const own = (result as Record<string, unknown>)[family.name];
    if (own !== undefined) wire[family.answerKey] = family.wire.toWire(own);
  }
  return wire;
}

/** The members a result struct may have, in words, for method help texts. */
export const WIRE_HELP = ALL_FAMILIES.map((f) => f.wire.help).join(', ');
