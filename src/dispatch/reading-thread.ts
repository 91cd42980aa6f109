// A reading thread (see answer-reader.ts): reads the answers it is sent, one at a time,
// with the UniProt release shared with the main thread (no copy) and the families' release
// indexes loaded from the same files as the main thread's (they are small).
import { parentPort, workerData } from 'node:worker_threads';
import { loadLookupsFrom } from '../families/lookups.ts';
import { UniprotIndex, type IndexContents } from '../uniprot/index.ts';
import { XmlRpcProtocolError } from '../xmlrpc/errors.ts';
import { AnswerFormatError } from './annotators/outcome.ts';
import { readAnswerNow, type AnswerContext } from './decode-and-validate.ts';

export interface ThreadRequest {
  id: number;
  body: Uint8Array;
  charset: string | undefined;
  context: AnswerContext;
  protocol: string | undefined;
}
export type ThreadReply =
  | { id: number; ok: true; decoded: ReturnType<typeof readAnswerNow> }
  | { id: number; ok: false; protocol: 'xmlrpc' | 'format' | null; message: string };

const { index, lookupFiles } = workerData as { index: IndexContents | null; lookupFiles: Record<string, string> };
const indexes = { accessions: index ? new UniprotIndex(index) : null, lookups: loadLookupsFrom(lookupFiles) };

parentPort!.on('message', ({ id, body, charset, context, protocol }: ThreadRequest) => {
  let reply: ThreadReply;
  try {
    reply = { id, ok: true, decoded: readAnswerNow(body, charset, context, indexes, protocol) };
  } catch (err) {
    reply = {
      id,
      ok: false,
      protocol: err instanceof XmlRpcProtocolError ? 'xmlrpc' : err instanceof AnswerFormatError ? 'format' : null,
      message: err instanceof Error ? err.message : String(err),
    };
  }
  parentPort!.postMessage(reply);
});
