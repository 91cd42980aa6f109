// Apache XML-RPC 3.1 is not in Debian, so its wire forms are reproduced here by hand, as a
// Java team's server with `enabledForExtensions` would send them: offsets from
// String.indexOf (UTF-16 units, like JavaScript's), a Long offset as <ex:i8>, a Float
// confidence as <ex:float>, strings untyped (<value>text</value>), and the faults Apache
// writes (code 0). Two encodings:
//   utf-8       `<?xml … encoding="UTF-8"?>`, every character as it is;
//   iso-8859-1  the charset in the Content-Type header only, Latin-1 bytes, and every
//               UTF-16 unit above U+00FF as a decimal character reference — a character
//               outside the BMP becomes a surrogate pair of references (&#55349;&#57084;).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { decodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { listenOnLoopback } from '../support/loopback.ts';

export type ApacheEncoding = 'utf-8' | 'iso-8859-1';

const NAMES = ['BRCA1', 'p53', '𝛼-synuclein', 'Müller'];
const EXTENSIONS_NS = 'http://ws.apache.org/xmlrpc/namespaces/extensions';

type JavaValue = { long: number } | { float: number } | { int: number } | boolean | string | JavaValue[] | { [name: string]: JavaValue };

function escape(text: string, encoding: ApacheEncoding): string {
  const markup = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (encoding === 'utf-8') return markup;
  let out = '';
  for (let i = 0; i < markup.length; i++) {
    const unit = markup.charCodeAt(i); // Java iterates chars: UTF-16 units, one reference each
    out += unit > 0xff ? `&#${unit};` : markup[i];
  }
  return out;
}

function write(value: JavaValue, encoding: ApacheEncoding): string {
  if (typeof value === 'string') return `<value>${escape(value, encoding)}</value>`;
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (Array.isArray(value)) return `<value><array><data>${value.map((v) => write(v, encoding)).join('')}</data></array></value>`;
  if ('long' in value && typeof value.long === 'number') return `<value><ex:i8>${value.long}</ex:i8></value>`;
  if ('float' in value && typeof value.float === 'number') return `<value><ex:float>${value.float}</ex:float></value>`;
  if ('int' in value && typeof value.int === 'number') return `<value><i4>${value.int}</i4></value>`;
  const members = Object.entries(value).map(
    ([name, v]) => `<member><name>${escape(name, encoding)}</name>${write(v as JavaValue, encoding)}</member>`,
  );
  return `<value><struct>${members.join('')}</struct></value>`;
}

function annotate(text: string): JavaValue {
  const mentions: JavaValue[] = [];
  for (const name of NAMES) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      mentions.push({ offset: { long: at }, mention: name, type: 'protein' });
    }
  }
  return { mentions, interaction: [/binds|interacts/.test(text), { float: 0.75 }] };
}

function document(inner: string, encoding: ApacheEncoding): string {
  const declaration = encoding === 'utf-8' ? '<?xml version="1.0" encoding="UTF-8"?>' : '<?xml version="1.0"?>';
  return `${declaration}<methodResponse xmlns:ex="${EXTENSIONS_NS}">${inner}</methodResponse>`;
}

function fault(message: string, encoding: ApacheEncoding): string {
  return document(`<fault>${write({ faultCode: { int: 0 }, faultString: message }, encoding)}</fault>`, encoding);
}

function answer(body: Buffer, encoding: ApacheEncoding): string {
  const call = decodeMethodCall(body);
  const strings = call.params.every((p) => typeof p === 'string');
  if (call.method !== 'Annotator.getAnnotation' && call.method !== 'Annotator.crash')
    return fault(`No such handler: ${call.method}`, encoding);
  if (call.params.length !== 1 || !strings)
    return fault(`No method matching arguments: ${call.params.map(() => 'java.lang.String').join(', ')}`, encoding);
  if (call.method === 'Annotator.crash') return fault('java.lang.IllegalStateException: the tagger crashed', encoding);
  return document(`<params><param>${write(annotate(call.params[0] as string), encoding)}</param></params>`, encoding);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export interface ApacheLikeServer {
  url: string;
  close(): Promise<void>;
}

export async function startApacheLike(encoding: ApacheEncoding): Promise<ApacheLikeServer> {
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.url !== '/RPC2') {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>HTTP Status 404 - Not Found</h1></body></html>');
        return;
      }
      const xml = answer(body, encoding);
      const bytes = Buffer.from(xml, encoding === 'utf-8' ? 'utf8' : 'latin1');
      res.writeHead(200, {
        'content-type': encoding === 'utf-8' ? 'text/xml' : 'text/xml; charset=ISO-8859-1',
        'content-length': bytes.length,
      });
      res.end(bytes);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/RPC2`, close };
}
