// Decodes XML-RPC documents while `saxes` reads them: one frame per open element, values
// built as elements close, no intermediate tree (a 20 MiB answer would otherwise cost
// millions of short-lived objects and seconds of garbage collection). The grammar is
// checked strictly as it goes: every element must be allowed where it appears, every
// scalar must parse and fit, and errors name the line, column and value path, e.g.
// `at line 1, column 210: param 1 › struct member "mentions" › array item 0`.
import type { SaxesParser } from 'saxes';
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

/**
 * One document's decoding, fed by the parser's events: the stack of open elements, each
 * checked against its parent as it opens and turned into its value as it closes.
 */
class DocumentDecoder {
  private readonly stack: Frame[] = [];
  /** The root element, once it has closed: the whole document read. */
  root: Frame | undefined;

  constructor(
    private readonly parser: SaxesParser,
    private readonly rootName: 'methodResponse' | 'methodCall',
  ) {
    parser.on('opentag', ({ name }) => this.open(name));
    parser.on('text', this.takeText);
    parser.on('cdata', this.takeText);
    parser.on('closetag', () => this.close());
  }

  /** Throws the error of the element being read, with where it is (an arrow: decodeScalar calls it too). */
  private readonly fail = (message: string): never => {
    const path = this.pathOfStack();
    throw new XmlRpcProtocolError(`${message} (at ${positionOf(this.parser)}${path ? `: ${path}` : ''})`);
  };

  /** The value path of the open elements, e.g. `param 1 › struct member "mentions" › array item 0`. */
  private pathOfStack(): string {
    const stack = this.stack;
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
  }

  private open(name: string): void {
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      if (name !== this.rootName) throw new XmlRpcProtocolError(`not an XML-RPC ${this.rootName}: the root element is <${name}>`);
      this.stack.push({ name, text: '', children: 0, depth: 0, hasValue: false });
      return;
    }
    this.checkChild(parent, name);
    const depth = name === 'value' ? parent.depth + 1 : parent.depth;
    if (depth > MAX_VALUE_DEPTH) this.fail(`values are nested deeper than ${MAX_VALUE_DEPTH} levels`);
    const frame: Frame = { name, text: '', children: 0, depth, hasValue: false };
    if (name === 'data' || name === 'params') frame.items = [];
    if (name === 'struct') frame.struct = Object.create(null) as XmlRpcStruct;
    this.stack.push(frame);
  }

  /** Refuses an element its parent may not hold there (and counts it among the parent's children). */
  private checkChild(parent: Frame, name: string): void {
    const allowed = ALLOWED[parent.name];
    if (!allowed) this.fail(`<${parent.name}> must contain text only, found <${name}>`);
    if (!allowed(name))
      this.fail(parent.name === 'value' ? `<${name}> is not an XML-RPC type` : `<${name}> is not allowed inside <${parent.name}>`);
    parent.children += 1;
    if (SINGLE_CHILD.has(parent.name) && parent.children > 1)
      this.fail(`<${parent.name}> must contain exactly one element; found another <${name}>`);
    if (parent.name === 'member' && parent.children > 2) this.fail('<member> must contain one <name> and one <value>');
    if (parent.name === 'methodCall' && (parent.children > 2 || (parent.children === 1) !== (name === 'methodName'))) {
      this.fail('<methodCall> must hold <methodName> first and then at most one <params>');
    }
  }

  /** Text and CDATA alike (an arrow: the parser calls it). */
  private readonly takeText = (chunk: string): void => {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return; // whitespace around the root; saxes refuses anything else there
    if (TEXT_IS_DATA.has(frame.name)) frame.text += chunk;
    else if (chunk.trim() !== '') this.fail(`unexpected text ${show(chunk.trim())} inside <${frame.name}>`);
  };

  private close(): void {
    const f = this.stack[this.stack.length - 1];
    const parent: Frame | undefined = this.stack[this.stack.length - 2];
    if (SCALAR_TYPES.has(f.name)) deliverToValue(parent, decodeScalar(f.name, f.text, this.fail));
    else if (f.name === 'array') {
      if (!f.hasValue) this.fail('<array> must contain <data>');
      deliverToValue(parent, f.value!);
    } else if (f.name === 'data') deliverToValue(parent, f.items!);
    else if (f.name === 'struct') deliverToValue(parent, f.struct!);
    else if (f.name === 'value') this.closeValue(f, parent);
    else if (f.name === 'name' || f.name === 'member') this.closeMemberPart(f, parent);
    else if (f.name === 'param' || f.name === 'fault') this.closeParamOrFault(f, parent);
    else if (f.name === 'params') parent.params = f.items;
    else if (f.name === 'methodName') parent.method = f.text.trim();
    else this.root = f;
    this.stack.pop();
  }

  private closeValue(f: Frame, parent: Frame): void {
    if (f.hasValue && f.text.trim() !== '') this.fail(`unexpected text ${show(f.text.trim())} next to the type element in <value>`);
    const value = f.hasValue ? f.value! : f.text; // untyped <value>text</value> is a string
    if (parent.name === 'data') parent.items!.push(value);
    else if (parent.hasValue) this.fail(`<${parent.name}> must contain one <value>`);
    else deliverToValue(parent, value);
  }

  private closeMemberPart(f: Frame, parent: Frame): void {
    if (f.name === 'name') {
      if (parent.memberName !== undefined) this.fail('<member> must contain one <name> and one <value>');
      parent.memberName = f.text;
      return;
    }
    if (f.memberName === undefined || !f.hasValue) this.fail('<member> must contain one <name> and one <value>');
    if (Object.hasOwn(parent.struct!, f.memberName!)) this.fail('the struct has this member twice');
    parent.struct![f.memberName!] = f.value!;
  }

  private closeParamOrFault(f: Frame, parent: Frame): void {
    if (!f.hasValue) this.fail(`<${f.name}> must contain one <value>`);
    if (f.name === 'param') parent.items!.push(f.value!);
    else {
      parent.isFault = true;
      parent.value = f.value;
    }
  }
}

function deliverToValue(parent: Frame, value: XmlRpcValue): void {
  parent.value = value;
  parent.hasValue = true;
}

function decodeDocument(input: string | Buffer, rootName: 'methodResponse' | 'methodCall', charset?: string): Frame {
  const text = prepareDocument(input, charset);
  const parser = createStrictParser();
  const decoder = new DocumentDecoder(parser, rootName);
  runParser(parser, text);
  if (!decoder.root) throw new XmlRpcProtocolError('the document has no root element');
  return decoder.root;
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
