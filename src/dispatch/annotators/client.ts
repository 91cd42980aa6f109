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
    // A server registered for batches is always called in the batch form (the setup check too).
    if ((server.batchSize ?? 1) > 1) return this.callBatch(server, [article], [context], opts).then((all) => all[0]);
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

  /**
   * Sends the articles in one call in the protocol's batch form, and reads one outcome per
   * article, in order: the call's failure (a timeout, an HTTP status, an unreadable body, a
   * fault for the whole call) is every article's; otherwise each has its own answer, fault
   * or unreadable part. Each carries the call's time and its share of the call's bytes.
   */
  async callBatch(
    server: AnnotatorServer,
    articles: readonly ArticleForCall[],
    contexts: readonly AnswerContext[],
    opts: AnnotatorCallOptions,
  ): Promise<Array<CallOutcome<AnswerText>>> {
    const protocol = protocolOf(server.protocol);
    const call = await callHttp(
      {
        url: server.url,
        body: this.bodies.buildBatch(articles, server),
        contentType: protocol.contentType,
        accept: protocol.accept,
        expects: protocol.expects,
        polling: protocol.polling,
        deadlineMs: opts.deadlineMs,
        maxResponseBytes: this.deps.maxAnswerBytes * articles.length,
        signal: opts.signal,
        decode: withFormatErrors(
          (body: Buffer, charset: string | undefined) => this.deps.answers.readBatch(body, charset, contexts, protocol.name),
          protocol.formatErrorOf,
        ),
      },
      opts.dispatcher,
    );
    const share = {
      ms: call.ms,
      bytesSent: Math.round(call.bytesSent / articles.length),
      bytesReceived: Math.round(call.bytesReceived / articles.length),
    };
    if (!call.ok) return articles.map(() => ({ ...call, ...share }));
    return call.value.map((item): CallOutcome<AnswerText> => {
      if (item.kind === 'value') return { ok: true, value: item.value, ...share };
      if (item.kind === 'unreadable') return { ok: false, kind: 'protocol', detail: item.message, ...share };
      const code = typeof item.code === 'string' ? JSON.stringify(item.code) : item.code;
      return { ok: false, kind: 'fault', detail: `fault ${code}: ${item.message}`, faultCode: item.code, ...share };
    });
  }
}
