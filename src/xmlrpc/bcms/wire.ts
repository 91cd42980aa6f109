// A stored, normalised answer turned back into the wire form of the annotation-server
// protocol — what a BCMS client would have received from the server itself:
//   ACT interaction [relevant, confidence]; INT normalizations [{dbid, dbname: 'UniProt',
//   rank, confidence?, taxid?, evidence?}]; IPT pairs [{a, b, rank, confidence?, evidence?}];
//   MENTION mentions [{offset, mention, type?, confidence?, section?}] (code points);
//   COREF coref: BioNLP standoff lines (the formats module's .a2 writer).
// Confidences always go out as <double>, 1.0 included (BCMS documented them as floats and
// Java clients cast them to Double); ranks, taxids and offsets as <int>.
import { exportA2 } from '../../formats/index.ts';
import type { AnswerResult } from '../../tasks/types.ts';
import { XmlRpcDouble, type EncodableValue } from '../codec.ts';

type WireStruct = { [member: string]: EncodableValue | undefined };

const double = (value: number | undefined): XmlRpcDouble | undefined => (value === undefined ? undefined : new XmlRpcDouble(value));

export function answerToWire(result: AnswerResult): WireStruct {
  const wire: WireStruct = {};
  if (result.ACT) wire.interaction = [result.ACT.relevant, new XmlRpcDouble(result.ACT.confidence)];
  if (result.INT) {
    wire.normalizations = result.INT.map((i) => ({
      dbid: i.accession, dbname: 'UniProt', rank: i.rank, confidence: double(i.confidence), taxid: i.taxid, evidence: i.evidence,
    }));
  }
  if (result.IPT) wire.pairs = result.IPT.map((p) => ({ a: p.a, b: p.b, rank: p.rank, confidence: double(p.confidence), evidence: p.evidence }));
  if (result.MENTION) {
    wire.mentions = result.MENTION.map((m) => ({ offset: m.start, mention: m.text, type: m.type, confidence: double(m.confidence), section: m.section }));
  }
  // The protocol's coref string has no final newline (lines joined by "\n").
  if (result.COREF) wire.coref = exportA2(result.COREF).replace(/\n$/, '');
  return wire;
}
