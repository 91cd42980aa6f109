// Builds the request for one article and one server, as bytes, in the server's protocol
// (annotators/registry.ts). Each distinct call
// document (servers without metadata all get the same one) is built once and shared by
// every request that sends it: thousands of requests may be in flight at once, and a body
// per request (a 100 KB string that undici flattens and encodes again for each) cost
// ~120 KB of memory per request. The documents kept are bounded by bytes, not by count:
// 256 articles of 5 MB each would be over a gigabyte.
import type { TaskName } from '../families/registry.ts';
import { requestParts } from './annotators/parts.ts';
import { protocolOf } from './annotators/registry.ts';

export { describeParams, GIVEN_TASKS, sendsGiven } from './annotators/parts.ts';

export interface ArticleForCall {
  id: string;
  organiserId: string | null;
  text: string;
  given: string;
}

export interface ServerForCall {
  method: string;
  tasks: TaskName[];
  sendMetadata: boolean;
  /** The annotator protocol (annotators/registry.ts); XML-RPC when absent. */
  protocol?: string;
  /** Articles per call (1 when absent): more are sent in the protocol's batch form. */
  batchSize?: number;
}

/** Call documents kept, at most, unless given another bound (256 texts of the usual 100 KB). */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class RequestBodies {
  /** Call documents by article and by what varies between servers; Map order is least recently used first. */
  private readonly calls = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** `given` goes only to servers registered for a task that takes it; the metadata only to servers that asked for it. */
  build(article: ArticleForCall, server: ServerForCall): Buffer {
    const protocol = protocolOf(server.protocol);
    const parts = requestParts(article, server);
    const metadata = parts.meta ? JSON.stringify(parts.meta) : '';
    const method = protocol.usesMethod ? server.method : '';
    const key = `${article.id}\u0000${protocol.name}\u0000${method}\u0000${parts.given !== undefined ? 1 : 0}\u0000${metadata}`;
    let call = this.calls.get(key);
    if (call) {
      this.calls.delete(key); // refresh: the oldest is evicted first
      this.calls.set(key, call);
      return call;
    }
    // The text is encoded once per document kept (most servers share one), and only the
    // documents are kept: keeping the encoded text too would hold every article twice.
    call = Buffer.from(protocol.encode(parts, server));
    if (call.length <= this.maxBytes) {
      this.calls.set(key, call);
      this.bytes += call.length;
      while (this.bytes > this.maxBytes) {
        const [oldest, body] = this.calls.entries().next().value!;
        this.calls.delete(oldest);
        this.bytes -= body.length;
      }
    }
    return call;
  }

  /**
   * One call's body for several articles (a server registered with batchSize > 1), in the
   * protocol's batch form. Not kept: a batch is rarely sent twice the same.
   */
  buildBatch(articles: readonly ArticleForCall[], server: ServerForCall): Buffer {
    const protocol = protocolOf(server.protocol);
    if (!protocol.batch) throw new Error(`a server speaking ${protocol.label} takes one article per call`);
    return Buffer.from(
      protocol.batch.encode(
        articles.map((a) => requestParts(a, server)),
        server,
      ),
    );
  }

  /** Bytes of the documents kept now. */
  get keptBytes(): number {
    return this.bytes;
  }
}
