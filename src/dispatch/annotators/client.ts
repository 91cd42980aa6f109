// The annotator client: the one seam through which dispatch, the setup check and
// `metaserver check-server` call an annotation server, whatever protocol it speaks. Given
// a server, an article (text, given annotations, metadata), a deadline and an abort
// signal, it returns an outcome: the validated answer, or one of dispatch's failure kinds
// with a detail, bytes and timings. The protocol (registry.ts) encodes the request and
// reads the answer; the HTTP exchange (http-call.ts) — deadline, size cap, the URL policy
// of the dispatcher given, asynchronous polling — is the same for all.
import type { Dispatcher } from 'undici';
import type { AnswerReader } from '../answer-reader.ts';
import type { AnswerContext, AnswerText } from '../decode-and-validate.ts';
import { RequestBodies, type ArticleForCall, type ServerForCall } from '../request-body.ts';
import { callHttp } from './http-call.ts';
import { withFormatErrors, type CallOutcome } from './outcome.ts';
import { protocolOf } from './registry.ts';

export type AnnotatorServer = ServerForCall & { url: string };

export interface AnnotatorCallOptions {
  deadlineMs: number;
  /** Connections to the server, through the URL policy (dispatch/annotators/policed-agent.ts). */
  dispatcher: Dispatcher;
  /** Cancels the call (the worker is stopping); reported as a `connection` failure whose detail starts with "cancelled". */
  signal?: AbortSignal;
}

export interface AnnotatorClientDeps {
  /** Decodes and validates answers, big ones off the event loop. */
  answers: AnswerReader;
  maxAnswerBytes: number;
  /** Request bodies, kept for every server that sends the same one (default: a store of its own). */
  bodies?: RequestBodies;
}

export class AnnotatorClient {
  private readonly bodies: RequestBodies;

  constructor(private readonly deps: AnnotatorClientDeps) {
    this.bodies = deps.bodies ?? new RequestBodies();
  }

  /**
   * Sends the article and reads the answer, validated against `context` (the text as sent,
   * the tasks asked). Never throws: every failure is an outcome.
   */
  call(
    server: AnnotatorServer,
    article: ArticleForCall,
    context: AnswerContext,
    opts: AnnotatorCallOptions,
  ): Promise<CallOutcome<AnswerText>> {
    const protocol = protocolOf(server.protocol);
    return callHttp(
      {
        url: server.url,
        body: this.bodies.build(article, server),
        contentType: protocol.contentType,
        accept: protocol.accept,
        expects: protocol.expects,
        polling: protocol.polling,
        deadlineMs: opts.deadlineMs,
        maxResponseBytes: this.deps.maxAnswerBytes,
        signal: opts.signal,
        decode: withFormatErrors(this.deps.answers.decoder(context, protocol.name), protocol.formatErrorOf),
      },
      opts.dispatcher,
    );
  }
}
