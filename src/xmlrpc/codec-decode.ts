// Decodes XML-RPC documents while `saxes` reads them: one frame per open element, values
// built as elements close, no intermediate tree (a 20 MiB answer would otherwise cost
// millions of short-lived objects and seconds of garbage collection). The grammar is
// checked strictly as it goes: every element must be allowed where it appears, every
// scalar must parse and fit, and errors name the line, column and value path, e.g.
// `at line 1, column 210: param 1 › struct member "mentions" › array item 0`.
import type { DecodedCall, DecodedResponse, XmlRpcStruct, XmlRpcValue } from './codec-values.ts';
import { createStrictParser, MAX_VALUE_DEPTH, positionOf, prepareDocument, runParser } from './codec-parse.ts';
import { decodeScalar, SCALAR_TYPES, show } from './codec-scalars.ts';
import { XmlRpcProtocolError } from './errors.ts';

interface Frame {
  name: string;
  text: string; // kept for elements whose text is data; others may hold whitespace only
  children: number;
  depth: number; // nesting depth of values: 1 for a param's value
  value?: XmlRpcValue;
  hasValue: boolean;
  items?: XmlRpcValue[]; // <data>, <params>
  struct?: XmlRpcStruct;
  memberName?: string;
  method?: string;
  params?: XmlRpcValue[];
  isFault?: boolean;
}

const ALLOWED: Record<string, (child: string) => boolean> = {
  methodResponse: (c) => c === 'params' || c === 'fault',
  methodCall: (c) => c === 'methodName' || c === 'params',
  params: (c) => c === 'param',
  param: (c) => c === 'value',
  fault: (c) => c === 'value',
  value: (c) => SCALAR_TYPES.has(c) || c === 'array' || c === 'struct',
  array: (c) => c === 'data',
  data: (c) => c === 'value',
  struct: (c) => c === 'member',
  member: (c) => c === 'name' || c === 'value',
};
const SINGLE_CHILD = new Set(['methodResponse', 'param', 'fault', 'value', 'array']);
const TEXT_IS_DATA = new Set(['value', 'name', 'methodName', ...SCALAR_TYPES]);

function decodeDocument(input: string | Buffer, rootName: 'methodResponse' | 'methodCall', charset?: string): Frame {
  const text = prepareDocument(input, charset);
  const parser = createStrictParser();
  const stack: Frame[] = [];
  let root: Frame | undefined;

  const pathOfStack = (): string => {
    const steps: string[] = [];
    for (let i = 0; i < stack.length; i++) {
      const f = stack[i];
      const inside = i + 1 < stack.length;
      if (f.name === 'params' && inside) steps.push(`param ${f.items!.length + 1}`);
      else if (f.name === 'fault') steps.push('fault');
      else if (f.name === 'data' && inside) steps.push(`array item ${f.items!.length}`);
      else if (f.name === 'member' && f.memberName !== undefined) steps.push(`struct member ${show(f.memberName)}`);
    }
    return steps.join(' › ');
  };
  const fail = (message: string): never => {
    const path = pathOfStack();
    throw new XmlRpcProtocolError(`${message} (at ${positionOf(parser)}${path ? `: ${path}` : ''})`);
  };
  const deliverToValue = (parent: Frame, value: XmlRpcValue): void => {
    parent.value = value;
    parent.hasValue = true;
  };

  parser.on('opentag', ({ name }) => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (name !== rootName) throw new XmlRpcProtocolError(`not an XML-RPC ${rootName}: the root element is <${name}>`);
      stack.push({ name, text: '', children: 0, depth: 0, hasValue: false });
      return;
    }
    const allowed = ALLOWED[parent.name];
    if (!allowed) fail(`<${parent.name}> must contain text only, found <${name}>`);
    if (!allowed(name))
      fail(parent.name === 'value' ? `<${name}> is not an XML-RPC type` : `<${name}> is not allowed inside <${parent.name}>`);
    parent.children += 1;
    if (SINGLE_CHILD.has(parent.name) && parent.children > 1)
      fail(`<${parent.name}> must contain exactly one element; found another <${name}>`);
    if (parent.name === 'member' && parent.children > 2) fail('<member> must contain one <name> and one <value>');
    if (parent.name === 'methodCall' && (parent.children > 2 || (parent.children === 1) !== (name === 'methodName'))) {
      fail('<methodCall> must hold <methodName> first and then at most one <params>');
    }
    const depth = name === 'value' ? parent.depth + 1 : parent.depth;
    if (depth > MAX_VALUE_DEPTH) fail(`values are nested deeper than ${MAX_VALUE_DEPTH} levels`);
    const frame: Frame = { name, text: '', children: 0, depth, hasValue: false };
    if (name === 'data' || name === 'params') frame.items = [];
    if (name === 'struct') frame.struct = Object.create(null) as XmlRpcStruct;
    stack.push(frame);
  });

  const onText = (chunk: string): void => {
    const frame = stack[stack.length - 1];
    if (!frame) return; // whitespace around the root; saxes refuses anything else there
    if (TEXT_IS_DATA.has(frame.name)) frame.text += chunk;
    else if (chunk.trim() !== '') fail(`unexpected text ${show(chunk.trim())} inside <${frame.name}>`);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', () => {
    const f = stack[stack.length - 1];
    const parent: Frame | undefined = stack[stack.length - 2];
    if (SCALAR_TYPES.has(f.name)) deliverToValue(parent, decodeScalar(f.name, f.text, fail));
    else if (f.name === 'array') {
      if (!f.hasValue) fail('<array> must contain <data>');
      deliverToValue(parent, f.value!);
    } else if (f.name === 'data') deliverToValue(parent, f.items!);
    else if (f.name === 'struct') deliverToValue(parent, f.struct!);
    else if (f.name === 'value') {
      if (f.hasValue && f.text.trim() !== '') fail(`unexpected text ${show(f.text.trim())} next to the type element in <value>`);
      const value = f.hasValue ? f.value! : f.text; // untyped <value>text</value> is a string
      if (parent.name === 'data') parent.items!.push(value);
      else if (parent.hasValue) fail(`<${parent.name}> must contain one <value>`);
      else deliverToValue(parent, value);
    } else if (f.name === 'name') {
      if (parent.memberName !== undefined) fail('<member> must contain one <name> and one <value>');
      parent.memberName = f.text;
    } else if (f.name === 'member') {
      if (f.memberName === undefined || !f.hasValue) fail('<member> must contain one <name> and one <value>');
      if (Object.hasOwn(parent.struct!, f.memberName!)) fail('the struct has this member twice');
      parent.struct![f.memberName!] = f.value!;
    } else if (f.name === 'param' || f.name === 'fault') {
      if (!f.hasValue) fail(`<${f.name}> must contain one <value>`);
      if (f.name === 'param') parent.items!.push(f.value!);
      else {
        parent.isFault = true;
        parent.value = f.value;
      }
    } else if (f.name === 'params') parent.params = f.items;
    else if (f.name === 'methodName') parent.method = f.text.trim();
    else root = f;
    stack.pop();
  });

  runParser(parser, text);
  if (!root) throw new XmlRpcProtocolError('the document has no root element');
  return root;
}

export interface DecodeOptions {
  /** The charset parameter of the HTTP Content-Type, used when the XML declares no encoding. */
  charset?: string;
}

/**
 * Decodes an answer: a value, or a fault. Anything else throws XmlRpcProtocolError. A fault
 * code may be a string (XMLRPC::Lite sends "Server"): it is kept as sent.
 */
export function decodeMethodResponse(xml: string | Buffer, opts: DecodeOptions = {}): DecodedResponse {
  const root = decodeDocument(xml, 'methodResponse', opts.charset);
  if (root.isFault) {
    const fault = root.value as XmlRpcStruct | null | undefined;
    const code = typeof fault === 'object' && fault !== null ? fault.faultCode : undefined;
    const message = typeof fault === 'object' && fault !== null ? fault.faultString : undefined;
    const codeOk = (typeof code === 'number' && Number.isInteger(code)) || typeof code === 'string';
    if (!codeOk || typeof message !== 'string') {
      throw new XmlRpcProtocolError('a fault must be a struct with faultCode (int, or a string) and faultString (string)');
    }
    return { kind: 'fault', code, message };
  }
  if (!root.params) throw new XmlRpcProtocolError('<methodResponse> must contain <params> or <fault>');
  if (root.params.length !== 1) throw new XmlRpcProtocolError(`an answer must hold exactly one <param>, found ${root.params.length}`);
  return { kind: 'value', value: root.params[0] };
}

/** Decodes a call (used by servers): the method name and its parameters. */
export function decodeMethodCall(xml: string | Buffer, opts: DecodeOptions = {}): DecodedCall {
  const root = decodeDocument(xml, 'methodCall', opts.charset);
  if (!root.method) throw new XmlRpcProtocolError('<methodCall> must name the method in a non-empty <methodName>');
  return { method: root.method, params: root.params ?? [] };
}
