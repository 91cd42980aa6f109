// Several articles in one XML-RPC call: system.multicall, the de-facto extension most
// XML-RPC stacks serve (Python's SimpleXMLRPCServer.register_multicall_functions, Perl's
// RPC::XML::Server, Apache XML-RPC, xmlrpc-c). Its one parameter is an array of structs
// {methodName, params}; the answer is an array holding, for each call in order, a
// one-element array with its value, or a fault struct {faultCode, faultString}.
import {
  assembleMethodCall,
  decodeMethodResponse,
  encodeParam,
  isXmlRpcStruct,
  type EncodableValue,
  type XmlRpcValue,
} from '../../xmlrpc/codec.ts';
import { countMismatch } from './batch.ts';
import { AnswerFormatError } from './outcome.ts';
import type { BatchForm, BatchItem, RequestParts } from './types.ts';

export const MULTICALL = 'system.multicall';

function paramsOf(parts: RequestParts): EncodableValue[] {
  const params: EncodableValue[] = [parts.text];
  if (parts.given !== undefined) params.push(parts.given);
  if (parts.meta) params.push({ article: parts.meta.article, tasks: [...parts.meta.tasks] });
  return params;
}

function itemOf(value: XmlRpcValue, k: number): BatchItem {
  if (Array.isArray(value) && value.length === 1) return { kind: 'value', value: value[0] };
  if (isXmlRpcStruct(value) && 'faultCode' in value) {
    const code = value.faultCode;
    return {
      kind: 'fault',
      code: typeof code === 'number' || typeof code === 'string' ? code : 0,
      message: typeof value.faultString === 'string' ? value.faultString : '',
    };
  }
  return {
    kind: 'unreadable',
    message: `item ${k} of the system.multicall answer is neither a one-element array holding the answer nor a fault struct {faultCode, faultString}`,
  };
}

export const xmlrpcMulticall: BatchForm = {
  encode(parts, server) {
    const calls = parts.map((p) => ({ methodName: server.method, params: paramsOf(p) }));
    return assembleMethodCall(MULTICALL, [encodeParam(calls)]);
  },
  decode(body, charset, texts) {
    const decoded = decodeMethodResponse(body, { charset });
    // A fault for the whole call: often no system.multicall at all (see the protocol's hint).
    if (decoded.kind === 'fault') return decoded;
    if (!Array.isArray(decoded.value)) {
      throw new AnswerFormatError(
        `the answer to ${MULTICALL} is not an array: it answers an array holding, per call, [answer] or a fault struct`,
      );
    }
    if (decoded.value.length !== texts.length) throw new AnswerFormatError(countMismatch(decoded.value.length, texts.length));
    return { kind: 'items', items: decoded.value.map(itemOf) };
  },
};
