// The values the XML-RPC codec decodes to, in a leaf of their own: the encoder, the decoder
// and the scalar readers all name them, and codec.ts (which gathers the codec for its
// users) imports those three, so the types cannot live in codec.ts without a circle.
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

export type DecodedResponse = { kind: 'value'; value: XmlRpcValue } | { kind: 'fault'; code: number | string; message: string };

export interface DecodedCall {
  method: string;
  params: XmlRpcValue[];
}

/** True for a decoded struct (or any plain object): not null, an array, a Date or a Buffer. */
export function isXmlRpcStruct(value: unknown): value is XmlRpcStruct {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}
