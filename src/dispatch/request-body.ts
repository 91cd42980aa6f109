// Builds the XML-RPC call for one article and one server. The article text is escaped once
// and kept in a small cache, because every server of a challenge is sent the same text.
import { assembleMethodCall, encodeParam, encodeStringParam } from '../xmlrpc/codec.ts';
import type { TaskName } from '../tasks/types.ts';

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

export class RequestBodies {
  private readonly fragments = new Map<string, { text: string; given: string }>();

  constructor(private readonly capacity = 64) {}

  private encoded(article: ArticleForCall): { text: string; given: string } {
    let hit = this.fragments.get(article.id);
    if (hit) {
      // Refresh: Map keeps insertion order, so the oldest entry is evicted first.
      this.fragments.delete(article.id);
    } else {
      hit = { text: encodeStringParam(article.text), given: encodeStringParam(article.given) };
      if (this.fragments.size >= this.capacity) this.fragments.delete(this.fragments.keys().next().value!);
    }
    this.fragments.set(article.id, hit);
    return hit;
  }

  /** `given` goes only to challenges with COREF; the metadata struct only to servers that asked for it. */
  build(article: ArticleForCall, server: ServerForCall, challengeTasks: TaskName[]): string {
    const encoded = this.encoded(article);
    const params = [encoded.text];
    if (challengeTasks.includes('COREF')) params.push(encoded.given);
    if (server.sendMetadata) params.push(encodeParam({ article: article.organiserId ?? article.id, tasks: server.tasks }));
    return assembleMethodCall(server.method, params);
  }
}
