// XML-RPC, the protocol of BCMS: one method call per article, params (text [, given]
// [, meta]), answered by one struct with a key per task, or a fault; several articles in one
// system.multicall for a server registered with batchSize > 1 (xmlrpc-multicall.ts).
import { assembleMethodCall, decodeMethodResponse, encodeParam, encodeStringParam } from '../../xmlrpc/codec.ts';
import { XMLRPC_EXPECTS, xmlRpcFormatError } from './xmlrpc-call.ts';
import { AnswerFormatError } from './outcome.ts';
import { describeParams, GIVEN_TASKS } from './parts.ts';
import { defineProtocol } from './types.ts';
import { MULTICALL, xmlrpcMulticall } from './xmlrpc-multicall.ts';

/** The method called when the registration names none. */
export const DEFAULT_METHOD = 'Annotator.getAnnotation';

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

/**
 * How the usual stacks word a call of a method they do not serve, here system.multicall:
 * Python ("method "system.multicall" is not supported"), Perl's Frontier ("no such method
 * `system.multicall'") and RPC::XML, Ruby ("Method system.multicall missing…"), and
 * XMLRPC::Lite, which looks for a Perl class named for the method's prefix ("Failed to
 * access class (system)").
 */
const NO_MULTICALL = /multicall|class \(system\)/i;

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

export const xmlrpc = defineProtocol({
  name: 'xmlrpc',
  label: 'XML-RPC',
  summary: 'XML-RPC method call (text [, given] [, meta]) answered by a struct (the default)',
  usesMethod: true,
  contentType: 'text/xml; charset=utf-8',
  expects: XMLRPC_EXPECTS,
  encode(parts, server) {
    // The document around the params, split at a marker: the text is escaped once.
    const MARK = '\u0000PARAMS\u0000';
    const [head, tail] = assembleMethodCall(server.method, [MARK]).split(MARK) as [string, string];
    const given = parts.given !== undefined ? encodeStringParam(parts.given) : '';
    const meta = parts.meta ? encodeParam({ article: parts.meta.article, tasks: [...parts.meta.tasks] }) : '';
    return head + encodeStringParam(parts.text) + given + meta + tail;
  },
  decode(body, charset) {
    const first = body.subarray(0, 64).toString('latin1').trimStart()[0];
    if (first === '{' || first === '[') {
      throw new AnswerFormatError(
        'the answer is JSON, not an XML-RPC methodResponse: a server that answers JSON is registered with protocol "json" or "pubannotation"',
      );
    }
    return decodeMethodResponse(body, { charset });
  },
  // The codec's own error (XmlRpcProtocolError) is thrown as is, also across a reading
  // thread (answer-reader.ts); callers of the HTTP exchange read it through this.
  formatErrorOf: xmlRpcFormatError,
  batch: xmlrpcMulticall,
  hint(call, server) {
    if (call.kind === 'fault' && (server.batchSize ?? 1) > 1 && NO_MULTICALL.test(call.detail)) {
      return ` — a server registered with batchSize > 1 is called with ${MULTICALL}; serve it (Python: server.register_multicall_functions()), or register without batchSize`;
    }
    if (call.kind === 'fault' && WRONG_ARITY.test(call.detail)) {
      return (
        ` — the meta-server sent ${describeParams(server)}. A server registered for ${GIVEN_TASKS} takes (text, given), ` +
        'any other (text) alone, plus meta only when asked for at registration'
      );
    }
    if (call.kind === 'http' && (call.httpStatus === 403 || call.httpStatus === 404)) {
      const usual = withUsualPath(server.url);
      if (usual) {
        return ` — many XML-RPC servers answer only at ${USUAL_PATH} (Python's SimpleXMLRPCServer, Perl's Frontier::Daemon, xmlrpc-c's Abyss server): is the server's URL ${usual}?`;
      }
    }
    if (call.kind === 'http' && (call.httpStatus === 303 || call.httpStatus === 415)) {
      return ' — an asynchronous (303 See Other) or JSON-only server is registered with protocol "pubannotation" or "json"';
    }
    return '';
  },
});
