// One XML-RPC call to one annotation server: the HTTP exchange every protocol shares
// (dispatch/annotators/http-call.ts: one deadline, a size cap, failures classified in
// dispatch's kinds) with an XML-RPC body and answer, its types re-exported
// for the callers that speak XML-RPC alone (tests, benches, interop checks); dispatch
// calls servers through the annotator client (dispatch/annotators/client.ts).
import type { Dispatcher } from 'undici';
import { callHttp } from './http-call.ts';
import { AnswerFormatError, withFormatErrors, type CallOutcome as AnyCallOutcome, type Decoded } from './outcome.ts';
import { decodeMethodResponse, XmlRpcProtocolError, type XmlRpcValue } from '../../xmlrpc/codec.ts';

export { createServerAgent } from './http-call.ts';
export type { Decoded, FailureKind } from './outcome.ts';

export type CallOutcome<V = XmlRpcValue> = AnyCallOutcome<V>;

/** What an XML-RPC answer needs, for the detail of an unexpected status. */
export const XMLRPC_EXPECTS = 'an XML-RPC answer needs status 200';

/**
 * The XML-RPC codec's error for a document it cannot read, as the AnswerFormatError the
 * HTTP exchange reads as a `protocol` failure, with the codec's message (written for the
 * team: what is wrong, where).
 */
export function xmlRpcFormatError(err: unknown): AnswerFormatError | undefined {
  return err instanceof XmlRpcProtocolError ? new AnswerFormatError(err.message, { cause: err }) : undefined;
}

export interface CallRequest<V = XmlRpcValue> {
  url: string;
  body: string | Buffer;
  deadlineMs: number;
  maxResponseBytes: number;
  /** Cancels the call (e.g. the worker is shutting down); reported as a `connection` failure whose detail starts with "cancelled". */
  signal?: AbortSignal;
  /**
   * Reads a complete answer body; throws XmlRpcProtocolError (or AnswerFormatError) for one
   * that is not a valid answer. Default: decodeMethodResponse, here. The deadline no longer runs while it works.
   * `charset` is the one named in the answer's Content-Type, for a document that declares none.
   */
  decode?: (body: Buffer, charset: string | undefined) => Decoded<V> | Promise<Decoded<V>>;
}

export function callXmlRpc<V = XmlRpcValue>(req: CallRequest<V>, dispatcher?: Dispatcher): Promise<CallOutcome<V>> {
  const decode = req.decode ?? ((body: Buffer, charset: string | undefined) => decodeMethodResponse(body, { charset }) as Decoded<V>);
  return callHttp(
    { ...req, decode: withFormatErrors(decode, xmlRpcFormatError), contentType: 'text/xml; charset=utf-8', expects: XMLRPC_EXPECTS },
    dispatcher,
  );
}
