// Several articles in one call, for a server registered with batchSize > 1. Jobs stay one
// per (article, server) pair — each is begun, judged, stored and retried on its own, and
// every guarantee of dispatch holds as for a server without batches — but the jobs of a
// server that a worker process holds at once share calls: each job hands its article here
// and waits for its own outcome. A call leaves as soon as one of the process's call slots
// for the server (its share of the server's concurrency) is free, with every article
// waiting then, up to batchSize. So batches fill by themselves when the server is the
// bottleneck, and a lone article is not held back waiting for company.
import type { Dispatcher } from 'undici';
import type { AnnotatorClient, AnnotatorServer } from './annotators/client.ts';
import type { CallOutcome } from './annotators/outcome.ts';
import type { AnswerContext, AnswerText } from './decode-and-validate.ts';
import type { ArticleForCall } from './request-body.ts';

export interface BatchCallOptions {
  deadlineMs: number;
  dispatcher: Dispatcher;
  /** This process's calls at once to the server. */
  slots: number;
  /** The job's own: cancels its article (the worker is stopping). */
  signal?: AbortSignal;
}

interface Waiting {
  article: ArticleForCall;
  context: AnswerContext;
  signal?: AbortSignal;
  resolve(outcome: CallOutcome<AnswerText>): void;
  reject(err: Error): void;
}

interface ServerCalls {
  waiting: Waiting[];
  inFlight: number;
  scheduled: boolean;
}

/** An article cancelled before its call left: reported as the HTTP exchange reports a cancelled call. */
const CANCELLED: CallOutcome<AnswerText> = {
  ok: false,
  kind: 'connection',
  detail: 'cancelled: the worker stopped before the request was made',
  ms: 0,
  bytesSent: 0,
  bytesReceived: 0,
};

export class BatchCaller {
  private readonly servers = new Map<number, ServerCalls>();

  constructor(private readonly client: AnnotatorClient) {}

  /** Sends the article in the next call to the server with room, and answers its own outcome. */
  call(
    server: AnnotatorServer & { id: number; batchSize: number },
    article: ArticleForCall,
    context: AnswerContext,
    opts: BatchCallOptions,
  ): Promise<CallOutcome<AnswerText>> {
    let calls = this.servers.get(server.id);
    if (!calls) this.servers.set(server.id, (calls = { waiting: [], inFlight: 0, scheduled: false }));
    const state = calls;
    return new Promise((resolve, reject) => {
      state.waiting.push({ article, context, signal: opts.signal, resolve, reject });
      this.schedule(server, state, opts);
    });
  }

  private schedule(server: AnnotatorServer & { id: number; batchSize: number }, calls: ServerCalls, opts: BatchCallOptions): void {
    if (calls.scheduled) return;
    calls.scheduled = true;
    // One turn of the event loop: the jobs taken together join the same call.
    setImmediate(() => {
      calls.scheduled = false;
      while (calls.inFlight < Math.max(1, opts.slots) && calls.waiting.length > 0) {
        const batch = calls.waiting.splice(0, server.batchSize);
        calls.inFlight++;
        void this.send(server, batch, opts).finally(() => {
          calls.inFlight--;
          if (calls.waiting.length > 0) this.schedule(server, calls, opts);
          else if (calls.inFlight === 0) this.servers.delete(server.id);
        });
      }
    });
  }

  private async send(server: AnnotatorServer, batch: Waiting[], opts: BatchCallOptions): Promise<void> {
    const live = batch.filter((w) => {
      if (!w.signal?.aborted) return true;
      w.resolve(CANCELLED);
      return false;
    });
    if (live.length === 0) return;
    const signals = live.flatMap((w) => (w.signal ? [w.signal] : []));
    try {
      const outcomes = await this.client.callBatch(
        server,
        live.map((w) => w.article),
        live.map((w) => w.context),
        // The worker stopping cancels every job it holds: any one signal stands for all.
        { deadlineMs: opts.deadlineMs, dispatcher: opts.dispatcher, signal: signals.length > 0 ? AbortSignal.any(signals) : undefined },
      );
      live.forEach((w, i) => w.resolve(outcomes[i]));
    } catch (err) {
      // callBatch reports every failure of the server as an outcome: anything thrown is ours, and each job fails with it.
      for (const w of live) w.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
