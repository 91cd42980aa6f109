// Reading answers without stalling the process. Decoding and validating an answer of
// 100,000 mentions (17 MB) takes a second or more of CPU; on the main thread that second
// is a second in which no other team's answer is stored and no health probe or status poll
// is answered. So answers over INLINE_BELOW_BYTES are read in a reading thread (a
// worker_threads Worker): the main thread hands over the bytes (moved, not copied), and
// gets back the validated result as JSON text, which it stores as is (shared/raw-json.ts).
// Small answers — nearly all of them — are read on the main thread, where they take well
// under 10 ms and a thread hop would only add latency. Measured in bench/answers.ts.
//
// The reading threads share the UniProt release with the main thread (a SharedArrayBuffer:
// no copy), load the families' release indexes from the files the main thread loaded them
// from, start on the first big answer, and are replaced if one dies (its answers fail
// as unreadable, not as the server's connection).
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FamilyLookups } from '../families/family.ts';
import type { AccessionLookup, IndexContents } from '../uniprot/index.ts';
import { XmlRpcProtocolError } from '../xmlrpc/errors.ts';
import { AnswerFormatError, type Decoded } from './annotators/outcome.ts';
import {
  readAnswerNow,
  readBatchNow,
  type AnswerContext,
  type AnswerText,
  type BatchAnswerItem,
  type ReleaseIndexes,
} from './decode-and-validate.ts';
import type { ThreadReply, ThreadRequest } from './reading-thread.ts';

/** Answers smaller than this are read on the main thread (at ~30 MB/s, under 10 ms). */
export const INLINE_BELOW_BYTES = 256 * 1024;

export interface AnswerReaderOptions {
  /** The UniProt release: its lookup for the main thread, and its tables in shared memory for the threads. */
  accessions?: { lookup: AccessionLookup; shared: IndexContents | null } | null;
  /** The families' release indexes (loadFamilyLookups), and the files they came from, for the threads. */
  lookups?: { loaded: FamilyLookups; files: Record<string, string> };
  /** Reading threads (default: the cores but one, at least one, at most four). */
  threads?: number;
  inlineBelowBytes?: number;
}

interface Waiting {
  resolve(decoded: Decoded<AnswerText>): void;
  reject(err: Error): void;
}

class ReadingThread {
  readonly waiting = new Map<number, Waiting>();
  private readonly worker: Worker;

  constructor(workerData: ThreadData, onGone: (thread: ReadingThread) => void) {
    this.worker = startWorker(workerData);
    this.worker.unref(); // an idle reading thread never keeps the process alive; a busy one does (read)
    this.worker.on('message', (reply: ThreadReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      if (reply.ok) waiting.resolve(reply.decoded);
      // The error as the protocol raised it: either kind is read as a `protocol` failure.
      else if (reply.protocol === 'xmlrpc') waiting.reject(new XmlRpcProtocolError(reply.message));
      else waiting.reject(reply.protocol === 'format' ? new AnswerFormatError(reply.message) : new Error(reply.message));
    });
    const gone = (why: string) => {
      onGone(this);
      for (const waiting of this.waiting.values())
        waiting.reject(new AnswerFormatError(`the answer could not be read: the reading thread stopped (${why})`));
      this.waiting.clear();
    };
    this.worker.on('error', (err) => gone(err.message));
    this.worker.on('exit', (code) => gone(`exit code ${code}`));
  }

  read(
    id: number,
    body: Buffer,
    charset: string | undefined,
    context: AnswerContext,
    protocol: string | undefined,
  ): Promise<Decoded<AnswerText>> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      // Moved when the bytes are a buffer of their own (as an answer body is), else copied.
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && !(body.buffer instanceof SharedArrayBuffer);
      const bytes = own ? new Uint8Array(body.buffer, 0, body.byteLength) : new Uint8Array(body);
      const request: ThreadRequest = { id, body: bytes, charset, context, protocol };
      this.worker.postMessage(request, own ? [bytes.buffer] : []);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * The reading thread's script: the bundled one next to the running bundle (`npm start`), or
 * the TypeScript source through tsx when the sources run (tests, benches, development).
 */
interface ThreadData {
  index: IndexContents | null;
  lookupFiles: Record<string, string>;
}

function startWorker(workerData: ThreadData): Worker {
  if (!import.meta.filename.endsWith('.ts')) return new Worker(join(import.meta.dirname, 'reading-thread.mjs'), { workerData });
  const entry = new URL('./reading-thread.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(entry)}))`;
  return new Worker(boot, { eval: true, workerData });
}

export class AnswerReader {
  private readonly threads: ReadingThread[] = [];
  private readonly maxThreads: number;
  private readonly inlineBelowBytes: number;
  private nextId = 1;

  private readonly indexes: ReleaseIndexes;

  constructor(private readonly opts: AnswerReaderOptions = {}) {
    this.indexes = { accessions: opts.accessions?.lookup ?? null, lookups: opts.lookups?.loaded ?? {} };
    this.maxThreads = Math.max(1, opts.threads ?? Math.min(4, availableParallelism() - 1));
    this.inlineBelowBytes = opts.inlineBelowBytes ?? INLINE_BELOW_BYTES;
  }

  /**
   * Reads an answer to an article sent to a server, in its protocol (XML-RPC when none);
   * rejects with the protocol's error for one that is not an answer in it. A big body is
   * moved to the reading thread: do not use it after.
   */
  read(body: Buffer, charset: string | undefined, context: AnswerContext, protocol?: string): Promise<Decoded<AnswerText>> {
    if (body.length < this.inlineBelowBytes) {
      try {
        return Promise.resolve(readAnswerNow(body, charset, context, this.indexes, protocol));
      } catch (err) {
        // The reader's own error, passed on as it was thrown (an XML-RPC or format error).
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return this.thread().read(this.nextId++, body, charset, context, protocol);
  }

  /**
   * Reads a batch answer (one item per context, in order), on this thread whatever its size:
   * batches are for many small documents (abstracts), whose answers are small; a server
   * answering big full texts gains little from batches and is better left at batchSize 1.
   */
  readBatch(
    body: Buffer,
    charset: string | undefined,
    contexts: readonly AnswerContext[],
    protocol?: string,
  ): Promise<Decoded<BatchAnswerItem[]>> {
    try {
      return Promise.resolve(readBatchNow(body, charset, contexts, this.indexes, protocol));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** The `decode` of a call (annotators/client.ts, callXmlRpc) for answers in this context and protocol. */
  decoder(context: AnswerContext, protocol?: string): (body: Buffer, charset: string | undefined) => Promise<Decoded<AnswerText>> {
    return (body, charset) => this.read(body, charset, context, protocol);
  }

  /** The least busy thread, starting another while there are fewer than maxThreads and all are busy. */
  private thread(): ReadingThread {
    const idle = this.threads.find((t) => t.waiting.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.maxThreads) {
      const data: ThreadData = { index: this.opts.accessions?.shared ?? null, lookupFiles: this.opts.lookups?.files ?? {} };
      const started = new ReadingThread(data, (gone) => {
        const at = this.threads.indexOf(gone);
        if (at >= 0) this.threads.splice(at, 1);
      });
      this.threads.push(started);
      return started;
    }
    return this.threads.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }

  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.stop()));
  }
}
