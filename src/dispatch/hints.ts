// Hints appended to a failed call's detail when a usual mistake explains it, for the error
// report and the setup check alike: a fault about the number of parameters (say which were
// sent and why), an HTTP 403/404 at a path other than /RPC2, the only one several XML-RPC
// libraries answer at, and header lines that do not end in CR LF (a CGI script's own output
// passed on unchanged, as Python's http.server does).
import type { CallOutcome } from '../xmlrpc/client.ts';
import { describeParams, GIVEN_TASKS, type ServerForCall } from './request-body.ts';

// How the usual stacks word a call with the wrong number of parameters (Python, Ruby,
// Perl's RPC::XML, xmlrpc-c, Apache XML-RPC).
const WRONG_ARITY = new RegExp(
  [
    'wrong number of (?:arguments|parameters)',
    'takes (?:exactly |at most |from )?\\d+ (?:positional )?arguments?',
    'missing \\d+ required (?:positional )?argument',
    'too (?:many|few) (?:arguments|parameters)',
    'no (?:matching )?(?:method|signature)s? match',
    'no matching (?:method|signature)',
    'signature',
    'arity',
    'expected \\d+ (?:arguments|parameters)',
    'array (?:of parameters )?has \\d+ items?',
    'index \\d+ is beyond (?:the )?end',
  ].join('|'),
  'i',
);

/** llhttp's reasons for a header line not ended by CR LF. */
const BARE_LINE_END = /expected CR|expected LF|LF after CR/i;

/** Where the usual libraries serve XML-RPC when told nothing else (some nowhere else). */
const USUAL_PATH = '/RPC2';

function withUsualPath(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.pathname === USUAL_PATH) return undefined;
    parsed.pathname = USUAL_PATH;
    return parsed.toString();
  } catch {
    return undefined;
  }
}

/** A sentence to append to the detail of a failed call ('' when no hint applies). */
export function failureHint(call: Extract<CallOutcome<unknown>, { ok: false }>, server: Pick<ServerForCall, 'tasks' | 'sendMetadata'> & { url: string }): string {
  if (call.kind === 'fault' && WRONG_ARITY.test(call.detail)) {
    return (
      ` — the meta-server sent ${describeParams(server)}. A server registered for ${GIVEN_TASKS} takes (text, given), ` +
      'any other (text) alone, plus meta only when asked for at registration'
    );
  }
  if (call.kind === 'protocol' && call.detail.includes('did not answer with valid HTTP') && BARE_LINE_END.test(call.detail)) {
    return (
      ' — HTTP header lines end in CR LF. A CGI script must write them so when its web server passes its output on unchanged ' +
      "(Python's http.server does; Apache httpd rewrites them)"
    );
  }
  if (call.kind === 'http' && (call.httpStatus === 403 || call.httpStatus === 404)) {
    const usual = withUsualPath(server.url);
    if (usual) {
      return ` — many XML-RPC servers answer only at ${USUAL_PATH} (Python's SimpleXMLRPCServer, Perl's Frontier::Daemon, xmlrpc-c's Abyss server): is the server's URL ${usual}?`;
    }
  }
  return '';
}
