// A strict XML-RPC 1.0 codec. Encoding is string building (fast, and the article text is
// encoded once per article and reused for every server); decoding parses with `saxes`,
// refuses DOCTYPEs and over-deep nesting, and checks every value's type and range.
//
// Types: int/i4 (32-bit signed) and i8 (exact up to 2^53) → number; double → number
// (finite only); Apache XML-RPC's extensions ex:i1, ex:i2, ex:i8, ex:biginteger, ex:float
// and ex:bigdecimal → number; boolean 0/1 → boolean; string and untyped
// <value>text</value> → string; array → array; struct → object without prototype;
// dateTime.iso8601 → Date (UTC); base64 → Buffer; nil → null. Structs decode to objects
// without a prototype (Object.create(null)), so a member named `__proto__` or
// `constructor` is just data; use `isXmlRpcStruct` to recognise one.
export {
  assembleMethodCall,
  encodeFault,
  encodeMethodCall,
  encodeMethodResponse,
  encodeParam,
  encodeStringParam,
  encodeValue,
  formatDouble,
  sanitizeXmlText,
  XmlRpcDouble,
  type EncodableValue,
} from './codec-encode.ts';
export { decodeMethodCall, decodeMethodResponse, type DecodeOptions } from './codec-decode.ts';
export { MAX_VALUE_DEPTH } from './codec-parse.ts';
export { XmlRpcProtocolError } from './errors.ts';

export interface XmlRpcStruct {
  [member: string]: XmlRpcValue;
}

export type XmlRpcValue =
  | number // int, i4, i8, double
  | boolean
  | string // string, and untyped <value>text</value>
  | null // nil (an extension; Python's allow_none)
  | Date // dateTime.iso8601, read as UTC
  | Buffer // base64
  | XmlRpcValue[]
  | XmlRpcStruct;

export type DecodedResponse =
  | { kind: 'value'; value: XmlRpcValue }
  | { kind: 'fault'; code: number | string; message: string };

export interface DecodedCall {
  method: string;
  params: XmlRpcValue[];
}

/** True for a decoded struct (or any plain object): not null, an array, a Date or a Buffer. */
export function isXmlRpcStruct(value: unknown): value is XmlRpcStruct {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array)
  );
}
