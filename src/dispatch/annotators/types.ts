// An annotator protocol: how an article goes to an annotation server and how its answer
// comes back, in one module per protocol (xmlrpc.ts, json.ts, pubannotation.ts), listed
// once in registry.ts. Everything else — the deadline, the size cap, the URL policy at
// connect time, retries, the attempt log, validation — is dispatch's and the same for all:
// a protocol only encodes the request and turns the answer body into the answer struct
// the validators read (the XML-RPC answer's keys and shapes: `mentions`, `normalizations`…).
import type { TaskName } from '../../families/registry.ts';
import type { ValidationIssue } from '../../tasks/types.ts';
import type { PollingRules } from './http-call.ts';
import type { FailedCall, FormatErrorOf } from './outcome.ts';

/** What a server is sent for one article: the text, and the optional parts its registration asks for. */
export interface RequestParts {
  text: string;
  /** The given annotations (COREF), only to servers registered for a task that takes them. */
  given?: string;
  /** Only to servers registered with sendMetadata. */
  meta?: { article: string; tasks: readonly TaskName[] };
}

/** What of a server's registration a protocol reads. */
export interface ProtocolServer {
  url: string;
  method: string;
  tasks: readonly TaskName[];
  sendMetadata: boolean;
  /** Articles per call (1 when absent). */
  batchSize?: number;
}

/** A decoded answer: the answer struct (with issues found while converting it), or the protocol's own statement of failure. */
export type DecodedAnswer =
  | {
      kind: 'value';
      value: unknown;
      errors?: ValidationIssue[];
      warnings?: ValidationIssue[];
      /** Names the validators' paths (`mentions[3].offset`) as the answer as sent has them (`denotations[5].span`). */
      renamePath?: (path: string) => string;
    }
  | { kind: 'fault'; code: number | string; message: string };

/** A protocol's own statement of failure, as decoded. */
export type FaultAnswer = Extract<DecodedAnswer, { kind: 'fault' }>;

/** One article's part of a batch answer: its answer or fault, or why that part cannot be read. */
export type BatchItem = DecodedAnswer | { kind: 'unreadable'; message: string };

/** A batch answer: one item per article sent, in the order sent, or the server's fault for the whole call. */
export type DecodedBatch = { kind: 'items'; items: BatchItem[] } | FaultAnswer;

/** How a protocol carries several articles in one call (a server registered with batchSize > 1; see batch.ts). */
export interface BatchForm {
  /** One call's body for these articles, in this order. */
  encode(parts: readonly RequestParts[], server: Pick<ProtocolServer, 'method'>): string;
  /**
   * The answer to that call, one item per text sent (`texts`, in order); throws
   * AnswerFormatError (or the codec's error, see formatErrorOf) for a body that is not a
   * batch answer, or holds another number of answers.
   */
  decode(body: Buffer, charset: string | undefined, texts: readonly string[]): DecodedBatch;
}

export interface AnnotatorProtocol<N extends string = string> {
  /** As registered (`protocol` field) and stored. */
  readonly name: N;
  /** As shown to people: "XML-RPC", "PubAnnotation". */
  readonly label: string;
  /** One line for the API's description of the field. */
  readonly summary: string;
  /** The tasks a server speaking it can answer (undefined: every task). */
  readonly tasks?: readonly TaskName[];
  /** Whether the registration's `method` means anything to it. */
  readonly usesMethod: boolean;
  readonly contentType: string;
  readonly accept?: string;
  /** What it needs of a status, for the detail of an unexpected one. */
  readonly expects: string;
  /** Asynchronous answers (303 See Other, then polling), if the protocol has them. */
  readonly polling?: PollingRules;
  /** The request body for one article (built once per article and kind of server, see request-body.ts). */
  encode(parts: RequestParts, server: Pick<ProtocolServer, 'method'>): string;
  /**
   * The answer body as the answer struct; throws AnswerFormatError (or its codec's error,
   * see formatErrorOf) for a body that is not an answer in this protocol. `text` is the article as sent (offsets refer to it).
   */
  decode(body: Buffer, charset: string | undefined, text: string): DecodedAnswer;
  /**
   * For a protocol whose codec throws an error of its own for a body it cannot read (it
   * reaches the caller as thrown, also from a reading thread): that error as the
   * AnswerFormatError the HTTP exchange reads as a `protocol` failure. Callers wrap their
   * decode with it (outcome.ts withFormatErrors).
   */
  readonly formatErrorOf?: FormatErrorOf;
  /** Several articles in one call, for servers registered with batchSize > 1 (undefined: one article per call only). */
  readonly batch?: BatchForm;
  /** A sentence to append to a failed call's detail when a usual mistake with this protocol explains it ('' when none). */
  hint?(call: FailedCall, server: ProtocolServer): string;
}

/** Declares a protocol module, keeping its name's literal type for the registry. */
export function defineProtocol<const N extends string>(protocol: AnnotatorProtocol<N>): AnnotatorProtocol<N> {
  return protocol;
}
