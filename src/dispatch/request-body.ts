// Builds the XML-RPC call for one article and one server, as bytes. The article text is
// escaped and encoded once per article, and each distinct call document (servers without
// metadata all get the same one) is built once and shared by every request that sends it:
// thousands of requests may be in flight at once, and a body per request (a 100 KB string
// that undici flattens and encodes again for each) cost ~120 KB of memory per request.
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

interface Encoded {
  text: Buffer;
  given: Buffer;
  /** Whole call documents by what varies between servers (method, given, metadata). */
  calls: Map<string, Buffer>;
}

/** Recently used articles kept; requests still in flight keep their own body alive anyway. */
const DEFAULT_CAPACITY = 256;
/** Distinct call documents kept per article (servers with metadata each get their own). */
const MAX_CALLS_PER_ARTICLE = 64;

export class RequestBodies {
  private readonly articles = new Map<string, Encoded>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  private encoded(article: ArticleForCall): Encoded {
    let hit = this.articles.get(article.id);
    if (hit) {
      // Refresh: Map keeps insertion order, so the oldest entry is evicted first.
      this.articles.delete(article.id);
    } else {
      hit = { text: Buffer.from(encodeStringParam(article.text)), given: Buffer.from(encodeStringParam(article.given)), calls: new Map() };
      if (this.articles.size >= this.capacity) this.articles.delete(this.articles.keys().next().value!);
    }
    this.articles.set(article.id, hit);
    return hit;
  }

  /** `given` goes only to servers registered for a task that takes it; the metadata struct only to servers that asked for it. */
  build(article: ArticleForCall, server: ServerForCall): Buffer {
    const encoded = this.encoded(article);
    const coref = sendsGiven(server);
    const metadata = server.sendMetadata ? encodeParam({ article: article.organiserId ?? article.id, tasks: server.tasks }) : '';
    const key = `${server.method}\u0000${coref ? 1 : 0}\u0000${metadata}`;
    let call = encoded.calls.get(key);
    if (!call) {
      // The document around the params, split at a marker: the big fragments are copied once, here.
      const MARK = '\u0000PARAMS\u0000';
      const [head, tail] = assembleMethodCall(server.method, [MARK]).split(MARK) as [string, string];
      const parts = [Buffer.from(head), encoded.text];
      if (coref) parts.push(encoded.given);
      parts.push(Buffer.from(metadata + tail));
      call = Buffer.concat(parts);
      if (encoded.calls.size >= MAX_CALLS_PER_ARTICLE) encoded.calls.delete(encoded.calls.keys().next().value!);
      encoded.calls.set(key, call);
    }
    return call;
  }
}
