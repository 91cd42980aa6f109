// A reading thread (see answer-reader.ts): reads the answers it is sent, one at a time,
// with the UniProt release shared with the main thread (no copy).
import { parentPort, workerData } from 'node:worker_threads';
import { uniprotIndexFrom, type IndexContents } from '../uniprot/index.ts';
import { XmlRpcProtocolError } from '../xmlrpc/errors.ts';
import { readAnswerNow, type AnswerContext } from './answer-reading.ts';

export interface ThreadRequest {
  id: number;
  body: Uint8Array;
  context: AnswerContext;
}
export type ThreadReply =
  | { id: number; ok: true; decoded: ReturnType<typeof readAnswerNow> }
  | { id: number; ok: false; protocol: boolean; message: string };

const { index } = workerData as { index: IndexContents | null };
const accessions = index ? uniprotIndexFrom(index) : null;

parentPort!.on('message', ({ id, body, context }: ThreadRequest) => {
  let reply: ThreadReply;
  try {
    reply = { id, ok: true, decoded: readAnswerNow(body, context, accessions) };
  } catch (err) {
    reply = { id, ok: false, protocol: err instanceof XmlRpcProtocolError, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
