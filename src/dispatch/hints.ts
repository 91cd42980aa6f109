// Hints appended to a failed call's detail when a usual mistake explains it, for the error
// report and the setup check alike: header lines that do not end in CR LF (a CGI script's
// own output passed on unchanged, as Python's http.server does), for every protocol; and
// each protocol's own (annotators/*.ts: a fault about the number of XML-RPC parameters, an
// XML-RPC server at a path other than /RPC2, a JSON server that reads form parameters…).
import type { FailedCall } from './annotators/outcome.ts';
import { protocolOf } from './annotators/registry.ts';
import type { ServerForCall } from './request-body.ts';

/** llhttp's reasons for a header line not ended by CR LF. */
const BARE_LINE_END = /expected CR|expected LF|LF after CR/i;

export type ServerForHint = Pick<ServerForCall, 'tasks' | 'sendMetadata' | 'protocol' | 'batchSize'> & { url: string; method?: string };

/** A sentence to append to the detail of a failed call ('' when no hint applies). */
export function failureHint(call: FailedCall, server: ServerForHint): string {
  if (call.kind === 'protocol' && call.detail.includes('did not answer with valid HTTP') && BARE_LINE_END.test(call.detail)) {
    return (
      ' — HTTP header lines end in CR LF. A CGI script must write them so when its web server passes its output on unchanged ' +
      "(Python's http.server does; Apache httpd rewrites them)"
    );
  }
  const protocol = protocolOf(server.protocol);
  return (
    protocol.hint?.(call, {
      url: server.url,
      method: server.method ?? '',
      tasks: server.tasks,
      sendMetadata: server.sendMetadata,
      batchSize: server.batchSize,
    }) ?? ''
  );
}
