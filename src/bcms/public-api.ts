// The BCMS read API: `POST /xmlrpc`, plain XML-RPC 1.0, for clients written against the
// BioCreative Meta-Server (and BC-VisCon's consensus clients). The methods, the articles
// served and the faults are in the files beside this one (docs/xmlrpc-read-api.md describes them for users):
//   Annotations.getAnnotationServerList / getAnnotations / getAnnotation,
//   Consensus.getConsensusMethods / getConsensusMethod / getConsensus,
//   Resources.getServerList / getServer, system.listMethods / methodHelp / methodSignature.
// Faults are answered with HTTP 200, as XML-RPC wants.
// The plugin is encapsulated (no fastify-plugin), so its text/xml parser applies here only.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { responses, TextBody } from '../http/schemas.ts';
import { bcmsMethods, callMethod, Fault, FAULT, type BcmsDeps, type BcmsMethod } from './index.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse, XmlRpcProtocolError } from '../xmlrpc/codec.ts';
import { addUtf8BodyParser } from '../http/utf8-body.ts';

/** A method call is a few hundred bytes; this leaves ample room and no more. */
const XMLRPC_BODY_LIMIT = 64 * 1024;

const XmlRpcCall = {
  tags: ['xml-rpc'],
  summary: 'BCMS-compatible XML-RPC read API: annotations, consensus and servers of on-demand articles',
  consumes: ['text/xml'],
  response: responses({
    200: TextBody('text/xml', 'an XML-RPC methodResponse: the result, or a fault (faults too are answered with 200)'),
  }),
};

function registerXmlParser(app: FastifyInstance): void {
  // Strict: a lenient decoder would turn bad bytes into U+FFFD and look up the wrong id.
  addUtf8BodyParser(app, ['text/xml', 'application/xml'], {
    bodyLimit: XMLRPC_BODY_LIMIT,
    invalid: () => ({ body: new Fault(FAULT.unreadable, 'the call is not valid UTF-8; send it encoded as UTF-8') }),
  });
}

/** The handler of POST /xmlrpc: one methodCall answered with the method's result, or with the fault it raised. */
function answerCall(methods: ReadonlyMap<string, BcmsMethod>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string> => {
    reply.type('text/xml; charset=utf-8');
    try {
      const body = request.body;
      if (body instanceof Fault) throw body;
      if (typeof body !== 'string') throw new Fault(FAULT.unreadable, 'send an XML-RPC methodCall with Content-Type: text/xml');
      let decoded;
      try {
        decoded = decodeMethodCall(body);
      } catch (err) {
        if (err instanceof XmlRpcProtocolError)
          throw new Fault(FAULT.unreadable, `cannot read the call: ${err.message}; send an XML-RPC 1.0 methodCall`);
        throw err;
      }
      return encodeMethodResponse(await callMethod(methods, decoded.method, decoded.params));
    } catch (err) {
      if (err instanceof Fault) return encodeFault(err.code, err.message);
      throw err;
    }
  };
}

export function xmlrpcApi(deps: BcmsDeps): FastifyPluginAsync {
  const methods = bcmsMethods(deps);
  return async (app) => {
    registerXmlParser(app);
    app.post('/xmlrpc', { schema: XmlRpcCall, config: { access: 'public' } }, answerCall(methods));
  };
}
