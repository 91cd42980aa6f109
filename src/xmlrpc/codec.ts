// A strict XML-RPC 1.0 codec. Encoding is string building (fast, and the article text is
// encoded once per article and reused for every server); decoding parses with `saxes`,
// refuses DOCTYPEs and over-deep nesting, and checks every value's type and range.
//
// Types (codec-values.ts): int/i4 (32-bit signed) and i8 (exact up to 2^53) → number; double → number
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
export { isXmlRpcStruct, type DecodedCall, type DecodedResponse, type XmlRpcStruct, type XmlRpcValue } from './codec-values.ts';
