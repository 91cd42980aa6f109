// Builds the XML-RPC call for one article and one server, as bytes. Each distinct call
// document (servers without metadata all get the same one) is built once and shared by
// every request that sends it: thousands of requests may be in flight at once, and a body
// per request (a 100 KB string that undici flattens and encodes again for each) cost
// ~120 KB of memory per request. The documents kept are bounded by bytes, not by count:
// 256 articles of 5 MB each would be over a gigabyte.
import { assembleMethodCall, encodeParam, encodeStringParam } from '../xmlrpc/codec.ts';
import { ALL_FAMILIES, type TaskName } from '../families/registry.ts';

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
}

/** The families whose servers are also sent the given annotations (COREF). */
const GIVEN_FAMILIES = ALL_FAMILIES.filter((f) => f.given);

/** The tasks that take `given`, for messages (COREF). */
export const GIVEN_TASKS = GIVEN_FAMILIES.map((f) => f.name).join(' or ');

/**
 * `given` goes only to servers registered for a task whose family takes it (COREF): a
 * server written for the original BCMS takes one parameter and faults on a second one.
 */
export function sendsGiven(server: Pick<ServerForCall, 'tasks'>): boolean {
  return GIVEN_FAMILIES.some((f) => (server.tasks as readonly string[]).includes(f.name));
}

/** The parameters a server is sent, each with why, e.g. for a fault about their number. */
export function describeParams(server: Pick<ServerForCall, 'tasks' | 'sendMetadata'>): string {
  const params = ['text (the article)'];
  const given = GIVEN_FAMILIES.filter((f) => (server.tasks as readonly string[]).includes(f.name));
  if (given.length > 0) params.push(`given (${given.map((f) => f.given!.description).join(', ')}: the server is registered for ${given.map((f) => f.name).join(' and ')})`);
  if (server.sendMetadata) params.push('meta (a struct {article, tasks}: the server asked for it at registration)');
  return `${params.length} parameter${params.length === 1 ? '' : 's'}: ${params.join(', ')}`;
}

/** Call documents kept, at most, unless given another bound (256 texts of the usual 100 KB). */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class RequestBodies {
  /** Call documents by article and by what varies between servers; Map order is least recently used first. */
  private readonly calls = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** `given` goes only to servers registered for a task that takes it; the metadata struct only to servers that asked for it. */
  build(article: ArticleForCall, server: ServerForCall): Buffer {
    const coref = sendsGiven(server);
    const metadata = server.sendMetadata ? encodeParam({ article: article.organiserId ?? article.id, tasks: server.tasks }) : '';
    const key = `${article.id}\u0000${server.method}\u0000${coref ? 1 : 0}\u0000${metadata}`;
    let call = this.calls.get(key);
    if (call) {
      this.calls.delete(key); // refresh: the oldest is evicted first
      this.calls.set(key, call);
      return call;
    }
    // The document around the params, split at a marker; the text is escaped once per
    // document kept (most servers share one), and only the documents are kept: keeping the
    // escaped text too would hold every article twice.
    const MARK = '\u0000PARAMS\u0000';
    const [head, tail] = assembleMethodCall(server.method, [MARK]).split(MARK) as [string, string];
    const params = encodeStringParam(article.text) + (coref ? encodeStringParam(article.given) : '') + metadata;
    call = Buffer.from(head + params + tail);
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

  /** Bytes of the documents kept now. */
  get keptBytes(): number {
    return this.bytes;
  }
}
