// The BCMS-compatible read API: `POST /xmlrpc`, plain XML-RPC 1.0, for clients written
// against the BioCreative Meta-Server. Only articles of the `live` challenge are served
// (challenge answers stay behind the REST API's access rules). Methods:
//   Annotations.getAnnotations(articleId)            → struct: server id (string) → answer struct
//   Annotations.getAnnotation(articleId, serverId)   → answer struct
//   Annotations.getAnnotationServerList(articleId)   → [{id, name, team, state}]
//   system.listMethods()                             → [method names]
// Answers are in the wire form of the annotation-server protocol (answerToWire below).
// Faults (HTTP 200, as XML-RPC wants): 1 unknown method, 2 wrong parameters, 3 unknown
// article, 4 no such server or no answer from it, 5 unreadable call.
// The plugin is encapsulated (no fastify-plugin), so its text/xml parser applies here only.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { LIVE_SLUG } from '../challenges/repository.ts';
import { articleServers, type ArticleServerState } from '../articles/status.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse, XmlRpcProtocolError, type XmlRpcStruct, type XmlRpcValue } from './codec.ts';
import { exportA2 } from '../formats/index.ts';
import type { AnswerResult } from '../tasks/types.ts';

// A stored, normalised answer turned back into the wire form of the annotation-server
// protocol (xmlrpc-protocol.md) — what a BCMS client would have received from the server:
//   ACT interaction [relevant, confidence]; INT normalizations [{dbid, dbname: 'UniProt',
//   rank, confidence?, taxid?, evidence?}]; IPT pairs [{a, b, rank, confidence?, evidence?}];
//   MENTION mentions [{offset, mention, type?, confidence?, section?}] (code points);
//   COREF coref: BioNLP standoff lines (the formats module's .a2 writer).
// Choice: integral numbers go out as <int> (a confidence of exactly 1 too), as the shared
// encoder does everywhere; XML-RPC clients read both as numbers.

function defined(entries: Record<string, XmlRpcValue | undefined>): XmlRpcStruct {
  const struct: XmlRpcStruct = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) struct[key] = value;
  return struct;
}

export function answerToWire(result: AnswerResult): XmlRpcStruct {
  const wire: XmlRpcStruct = {};
  if (result.ACT) wire.interaction = [result.ACT.relevant, result.ACT.confidence];
  if (result.INT) {
    wire.normalizations = result.INT.map((i) =>
      defined({ dbid: i.accession, dbname: 'UniProt', rank: i.rank, confidence: i.confidence, taxid: i.taxid, evidence: i.evidence }),
    );
  }
  if (result.IPT) wire.pairs = result.IPT.map((p) => defined({ a: p.a, b: p.b, rank: p.rank, confidence: p.confidence, evidence: p.evidence }));
  if (result.MENTION) {
    wire.mentions = result.MENTION.map((m) => defined({ offset: m.start, mention: m.text, type: m.type, confidence: m.confidence, section: m.section }));
  }
  // The protocol's coref string has no final newline (lines joined by "\n").
  if (result.COREF) wire.coref = exportA2(result.COREF).replace(/\n$/, '');
  return wire;
}

/** A method call is a few hundred bytes; this leaves ample room and no more. */
export const XMLRPC_BODY_LIMIT = 64 * 1024;

export const FAULT = { unknownMethod: 1, badParams: 2, unknownArticle: 3, unknownServer: 4, unreadable: 5 } as const;

export const PUBLIC_METHODS = [
  'Annotations.getAnnotations',
  'Annotations.getAnnotation',
  'Annotations.getAnnotationServerList',
  'system.listMethods',
] as const;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

class Fault extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

function registerXmlParser(app: FastifyInstance): void {
  app.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'buffer', bodyLimit: XMLRPC_BODY_LIMIT }, (_request, body: Buffer, done) => {
    // Strict: a lenient decoder would turn bad bytes into U+FFFD and look up the wrong id.
    try {
      done(null, strictUtf8.decode(body));
    } catch {
      done(null, new Fault(FAULT.unreadable, 'the call is not valid UTF-8; send it encoded as UTF-8'));
    }
  });
}

function articleIdParam(params: XmlRpcValue[], method: string, arity: number): string {
  const usage = arity === 1 ? `${method}(articleId: string)` : `${method}(articleId: string, serverId: int)`;
  if (params.length !== arity) throw new Fault(FAULT.badParams, `${method} takes ${arity} parameter(s): ${usage}; got ${params.length}`);
  if (typeof params[0] !== 'string' || params[0] === '') throw new Fault(FAULT.badParams, `the articleId must be a non-empty string: ${usage}`);
  return params[0];
}

function serverIdParam(value: XmlRpcValue): number {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || id < 1) throw new Fault(FAULT.badParams, 'the serverId must be a positive integer (or its decimal string)');
  return id;
}

export function xmlrpcApi(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    registerXmlParser(app);

    async function liveServers(articleId: string): Promise<ArticleServerState[]> {
      const article = await ctx.repos.articles.byId(articleId);
      // Challenge articles are "unknown" here, exactly like ids that do not exist.
      if (!article || article.challenge !== LIVE_SLUG) throw new Fault(FAULT.unknownArticle, `unknown article "${articleId}": no on-demand article has this id`);
      return await articleServers(ctx.db, article.id);
    }

    async function call(method: string, params: XmlRpcValue[]): Promise<XmlRpcValue> {
      switch (method) {
        case 'system.listMethods':
          return [...PUBLIC_METHODS];
        case 'Annotations.getAnnotations': {
          const servers = await liveServers(articleIdParam(params, method, 1));
          return Object.fromEntries(servers.flatMap((s) => (s.result ? [[String(s.serverId), answerToWire(s.result)]] : [])));
        }
        case 'Annotations.getAnnotation': {
          const articleId = articleIdParam(params, method, 2);
          const serverId = serverIdParam(params[1]!);
          const server = (await liveServers(articleId)).find((s) => s.serverId === serverId);
          if (!server) throw new Fault(FAULT.unknownServer, `article "${articleId}" was not sent to server ${serverId}`);
          if (!server.result) {
            throw new Fault(FAULT.unknownServer, `server ${serverId} has no answer to article "${articleId}" (${server.state === 'failed' ? 'it failed' : 'not yet'})`);
          }
          return answerToWire(server.result);
        }
        case 'Annotations.getAnnotationServerList': {
          const servers = await liveServers(articleIdParam(params, method, 1));
          return servers.map((s) => ({ id: s.serverId, name: s.name, team: s.team, state: s.state }));
        }
        default:
          throw new Fault(FAULT.unknownMethod, `unknown method "${method}"; this server answers ${PUBLIC_METHODS.join(', ')}`);
      }
    }

    app.post('/xmlrpc', { schema: { tags: ['xml-rpc'], summary: 'BCMS-compatible XML-RPC read API (live articles)', consumes: ['text/xml'] } }, async (request, reply) => {
      reply.type('text/xml; charset=utf-8');
      try {
        const body = request.body;
        if (body instanceof Fault) throw body;
        if (typeof body !== 'string') throw new Fault(FAULT.unreadable, 'send an XML-RPC methodCall with Content-Type: text/xml');
        let decoded;
        try {
          decoded = decodeMethodCall(body);
        } catch (err) {
          if (err instanceof XmlRpcProtocolError) throw new Fault(FAULT.unreadable, `cannot read the call: ${err.message}`);
          throw err;
        }
        return encodeMethodResponse(await call(decoded.method, decoded.params));
      } catch (err) {
        if (err instanceof Fault) return encodeFault(err.code, err.message);
        throw err;
      }
    });
  };
}
