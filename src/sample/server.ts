// The sample annotation server: plain node:http plus the XML-RPC codec, answering every
// call with the sample annotator — in XML-RPC, or in the JSON or PubAnnotation protocol
// (protocols.ts; PubAnnotation synchronously or asynchronously). It is what a team's server looks like from the
// meta-server's side, and what the setup-phase check and the tests talk to.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { annotate } from './annotator.ts';
import { JsonSampleHandler, type SampleProtocol } from './protocols.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse, isXmlRpcStruct, XmlRpcProtocolError } from '../xmlrpc/codec.ts';

export { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';
import { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export interface SampleServerOptions {
  port: number;
  host?: string;
  method?: string;
  /** The protocol to answer in (default xmlrpc). */
  protocol?: SampleProtocol;
  /** PubAnnotation only: answer asynchronously (303 See Other, then the result at its URL). */
  async?: boolean;
}

export interface SampleServer {
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length });
  res.end(bytes);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The XML-RPC answer document for one call body (a value or a fault). */
function answerCall(body: Buffer | string, method: string): string {
  let call;
  try {
    call = decodeMethodCall(body);
  } catch (err) {
    const message = err instanceof XmlRpcProtocolError ? err.message : String(err);
    return encodeFault(2, `cannot read the call: ${message}`);
  }
  if (call.method !== method) return encodeFault(1, `unknown method "${call.method}"; this server answers "${method}"`);
  const [text, given = '', meta] = call.params;
  if (typeof text !== 'string' || typeof given !== 'string' || call.params.length > 3 || (meta !== undefined && !isXmlRpcStruct(meta))) {
    return encodeFault(3, `${method} takes (text: string [, given: string [, meta: struct]])`);
  }
  return encodeMethodResponse(annotate(text, given));
}

export async function startSampleServer(opts: SampleServerOptions): Promise<SampleServer> {
  const method = opts.method ?? DEFAULT_METHOD;
  const host = opts.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  const json = opts.protocol && opts.protocol !== 'xmlrpc' ? new JsonSampleHandler(opts.protocol, opts.async ?? false) : undefined;
  const server = createServer((req, res) => {
    if (json) {
      readBody(req).then(
        (body) =>
          body === undefined
            ? send(res, 413, 'text/plain; charset=utf-8', `the request is larger than ${MAX_REQUEST_BYTES} bytes\n`)
            : json.handle(req, res, body),
        () => res.destroy(),
      );
      return;
    }
    if (req.method !== 'POST') {
      send(res, 400, 'text/plain; charset=utf-8', `this is an XML-RPC server: POST a methodCall for "${method}"\n`);
      return;
    }
    readBody(req).then(
      (body) => {
        if (body === undefined) send(res, 413, 'text/plain; charset=utf-8', `the call is larger than ${MAX_REQUEST_BYTES} bytes\n`);
        else send(res, 200, 'text/xml; charset=utf-8', answerCall(body, method));
      },
      () => res.destroy(),
    );
  });
  server.requestTimeout = 0; // long articles on slow links must not be cut off by the server
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
