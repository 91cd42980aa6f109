import { afterEach, describe, expect, it } from 'vitest';
import { callXmlRpc, createServerAgent, type CallOutcome } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { annotate } from '../../src/sample/annotator.ts';
import { refusedPort, startFaultyServer, type Behaviour, type FaultyServer } from '../support/faulty-servers.ts';

const TEXT = 'BRCA1 binds P38398 and forms a complex with Q9UQ84.';
const BODY = encodeMethodCall('Annotator.getAnnotation', [TEXT, '']);
const BODY_BYTES = Buffer.byteLength(BODY);
const servers: FaultyServer[] = [];

async function serve(behaviour: Behaviour): Promise<FaultyServer> {
  const server = await startFaultyServer(behaviour);
  servers.push(server);
  return server;
}

function call(url: string, deadlineMs = 5_000, maxResponseBytes = 1_000_000): Promise<CallOutcome> {
  return callXmlRpc({ url, body: BODY, deadlineMs, maxResponseBytes });
}

function failure(outcome: CallOutcome): Extract<CallOutcome, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('answers', () => {
  it('returns the decoded answer of a good server, with sizes and the request it sent', async () => {
    const server = await serve({ kind: 'good' });
    const outcome = await call(server.url);
    expect(outcome).toMatchObject({ ok: true, value: annotate(TEXT), bytesSent: BODY_BYTES });
    expect(outcome.bytesReceived).toBeGreaterThan(100);
    expect(server.requests).toBe(1);
    expect(server.calls[0]).toEqual({ method: 'Annotator.getAnnotation', params: [TEXT, ''], contentType: 'text/xml; charset=utf-8' });
  });

  it('waits for a delayed answer that arrives within the deadline', async () => {
    const server = await serve({ kind: 'delayed', ms: 200 });
    const outcome = await call(server.url, 10_000);
    expect(outcome.ok).toBe(true);
    expect(outcome.ms).toBeGreaterThanOrEqual(190);
  });

  it('hands a well-typed but wrong answer on (validation is not the client’s job)', async () => {
    const server = await serve({ kind: 'wrongTypes' });
    expect(await call(server.url)).toMatchObject({ ok: true, value: { interaction: 'yes', mentions: [{ offset: '3' }] } });
  });

  it('works through a per-server agent, and a flaky server recovers after its failures', async () => {
    const server = await serve({ kind: 'flaky', failures: 2 });
    const agent = createServerAgent({ connections: 1 });
    try {
      const kinds = [];
      for (let i = 0; i < 3; i++) {
        const outcome = await callXmlRpc({ url: server.url, body: BODY, deadlineMs: 5_000, maxResponseBytes: 1_000_000 }, agent);
        kinds.push(outcome.ok ? 'ok' : `${outcome.kind} ${outcome.httpStatus}`);
      }
      expect(kinds).toEqual(['http 500', 'http 500', 'ok']);
      expect(server.requests).toBe(3);
    } finally {
      await agent.close();
    }
  });
});

describe('timeouts: one deadline for the whole call', () => {
  it.each<[string, Behaviour, RegExp]>([
    ['a server that reads but never answers', { kind: 'hang' }, /no response headers received/],
    ['a server that never reads', { kind: 'silent' }, /no response headers received/],
    ['a server that drips one byte per second', { kind: 'drip', intervalMs: 1_000 }, /\d+ bytes? of the answer received so far/],
  ])('%s', async (_name, behaviour, partial) => {
    const server = await serve(behaviour);
    const outcome = failure(await call(server.url, 300));
    expect(outcome.kind).toBe('timeout');
    expect(outcome.detail).toMatch(/^no complete answer within the deadline of 0\.3 s/);
    expect(outcome.detail).toMatch(partial);
    expect(outcome.ms).toBeGreaterThanOrEqual(290);
    expect(outcome.ms).toBeLessThan(5_000);
  });

  it('counts the bytes a dripping server managed to send', async () => {
    const server = await serve({ kind: 'drip', intervalMs: 1_000 });
    const outcome = failure(await call(server.url, 300));
    expect(outcome.bytesReceived).toBe(1); // the first byte goes out at once, the second after 1 s
    expect(outcome.bytesSent).toBe(BODY_BYTES);
  });
});

describe('connection failures', () => {
  it('reports a refused connection with the address and a hint', async () => {
    const port = await refusedPort();
    const outcome = failure(await call(`http://127.0.0.1:${port}/`));
    expect(outcome.kind).toBe('connection');
    expect(outcome.detail).toBe(`connection refused by 127.0.0.1:${port} — is the server running and listening on that port?`);
    expect(outcome.bytesSent).toBe(0);
  });

  it('reports a reset in the middle of the answer', async () => {
    const server = await serve({ kind: 'reset', afterBytes: 30 });
    const outcome = failure(await call(server.url));
    expect(outcome.kind).toBe('connection');
    expect(outcome.detail).toMatch(/reset by the server after 30 bytes of the answer|closed the connection after 30 bytes/);
    expect(outcome.bytesReceived).toBe(30);
  });

  it('reports a connection closed before any response header', async () => {
    const server = await serve({ kind: 'closeBeforeHeaders' });
    const outcome = failure(await call(server.url));
    expect(outcome.kind).toBe('connection');
    expect(outcome.detail).toMatch(/closed the connection before sending response headers/);
    expect(server.requests).toBe(1);
  });

  it('reports an unusable URL without trying', async () => {
    const outcome = failure(await call('ftp://example.invalid/'));
    expect(outcome).toMatchObject({ kind: 'connection', bytesSent: 0 });
    expect(outcome.detail).toMatch(/not a valid http/);
  });

  it('reports a cancelled call as cancelled, not as the server’s timeout', async () => {
    const server = await serve({ kind: 'hang' });
    const controller = new AbortController();
    const pending = callXmlRpc({ url: server.url, body: BODY, deadlineMs: 10_000, maxResponseBytes: 1000, signal: controller.signal });
    while (server.requests === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect(failure(await pending)).toMatchObject({ kind: 'connection', detail: expect.stringMatching(/^cancelled/) });
  });
});

describe('HTTP, protocol and fault failures', () => {
  it.each([500, 502, 404])('HTTP %i', async (status) => {
    const server = await serve({ kind: 'http', status });
    const outcome = failure(await call(server.url));
    expect(outcome).toMatchObject({ kind: 'http', httpStatus: status });
    expect(outcome.detail).toMatch(new RegExp(`^HTTP ${status} \\w.*: Error ${status} the annotation backend is unavailable`));
  });

  it.each<[string, Behaviour, RegExp]>([
    ['an HTML page', { kind: 'html' }, /HTML page/],
    ['a truncated answer', { kind: 'truncated' }, /malformed XML at line \d+, column \d+/],
  ])('%s', async (_name, behaviour, detail) => {
    const server = await serve(behaviour);
    const outcome = failure(await call(server.url));
    expect(outcome.kind).toBe('protocol');
    expect(outcome.detail).toMatch(detail);
    expect(outcome.bytesReceived).toBeGreaterThan(0);
  });

  it('refuses an answer announced larger than the cap without reading it', async () => {
    const server = await serve({ kind: 'oversize', bytes: 50_000 });
    const outcome = failure(await call(server.url, 5_000, 10_000));
    expect(outcome.kind).toBe('protocol');
    expect(outcome.detail).toMatch(/^the answer exceeded the cap of 10000 bytes \(it announced \d+ bytes\)/);
    expect(outcome.bytesReceived).toBe(0);
  });

  it('stops reading a chunked answer once it passes the cap', async () => {
    const server = await serve({ kind: 'oversize', bytes: 500_000, chunked: true });
    const outcome = failure(await call(server.url, 5_000, 10_000));
    expect(outcome.kind).toBe('protocol');
    expect(outcome.detail).toMatch(/^the answer exceeded the cap of 10000 bytes and was cut off/);
    expect(outcome.bytesReceived).toBeGreaterThan(10_000);
    expect(outcome.bytesReceived).toBeLessThan(500_000);
  });

  it('reports an XML-RPC fault with its code and string', async () => {
    const server = await serve({ kind: 'fault', code: 7, message: 'tagger crashed' });
    expect(failure(await call(server.url))).toMatchObject({ kind: 'fault', faultCode: 7, detail: 'fault 7: tagger crashed' });
  });
});

// What real XML-RPC stacks and broken servers send (issue: every stack a team uses works).
describe('answers as real stacks write them', () => {
  const xmlBody = '<?xml version="1.0"?><methodResponse><params><param><value><string>x</string></value></param></params></methodResponse>';

  it.each<[string, string | Buffer, RegExp]>([
    [
      'header lines ending in LF only',
      `HTTP/1.1 200 OK\nContent-Type: text/xml\nContent-Length: ${xmlBody.length}\n\n${xmlBody}`,
      /status line or headers: .*CR/,
    ],
    [
      'header lines ending in CR only',
      `HTTP/1.1 200 OK\rContent-Type: text/xml\rContent-Length: ${xmlBody.length}\r\r${xmlBody}`,
      /status line or headers: .*LF/,
    ],
    [
      'a bad chunk size',
      `HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${xmlBody}\r\n0\r\n\r\n`,
      /in the body.*chunk size/,
    ],
    ['random bytes', Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919 + 13) % 256)), /status line or headers: .*HTTP\//],
    [
      'a header of 100 000 bytes',
      `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(100_000)}\r\nContent-Length: ${xmlBody.length}\r\n\r\n${xmlBody}`,
      /response headers larger than the \d+ bytes/,
    ],
  ])('broken HTTP is a protocol failure with the parser’s reason: %s', async (_name, bytes, detail) => {
    const server = await serve({ kind: 'raw', bytes });
    const outcome = failure(await call(server.url));
    expect(outcome.kind).toBe('protocol');
    expect(outcome.detail).toMatch(/^the server at 127\.0\.0\.1:\d+ (did not answer with valid HTTP|sent response headers)/);
    expect(outcome.detail).toMatch(detail);
  });

  it('honours the charset of the Content-Type header when the XML declares none', async () => {
    const latin1 = Buffer.from(
      '<methodResponse><params><param><value><string>Ménière, Müller</string></value></param></params></methodResponse>',
      'latin1',
    );
    const server = await serve({ kind: 'body', body: latin1, contentType: 'text/xml; charset=ISO-8859-1' });
    expect(await call(server.url)).toMatchObject({ ok: true, value: 'Ménière, Müller' });
    const quoted = await serve({ kind: 'body', body: latin1, contentType: 'text/xml;charset="iso-8859-1"' });
    expect(await call(quoted.url)).toMatchObject({ ok: true, value: 'Ménière, Müller' });
  });

  it('lets the XML declaration win over the header, and names the header when it is wrong', async () => {
    const utf8 = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><methodResponse><params><param><value>Müller</value></param></params></methodResponse>',
    );
    const declared = await serve({ kind: 'body', body: utf8, contentType: 'text/xml; charset=ISO-8859-1' });
    expect(await call(declared.url)).toMatchObject({ ok: true, value: 'Müller' });
    const latin1 = Buffer.from('<methodResponse><params><param><value>Müller</value></param></params></methodResponse>', 'latin1');
    const lying = await serve({ kind: 'body', body: latin1, contentType: 'text/xml; charset=utf-8' });
    expect(failure(await call(lying.url))).toMatchObject({
      kind: 'protocol',
      detail: expect.stringMatching(/not valid UTF-8 \(as the Content-Type header names utf-8\)/),
    });
  });

  it('records a fault with a string code (XMLRPC::Lite) as a fault, with the whole string', async () => {
    const message = 'Failed to locate method (getAnnotation) in class (main) at /usr/share/perl5/SOAP/Lite.pm line 2873.\n';
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><methodResponse><fault><value><struct><member><name>faultString</name>' +
      `<value><string>${message}</string></value></member><member><name>faultCode</name><value><string>Server</string></value></member></struct></value></fault></methodResponse>`;
    const server = await serve({ kind: 'body', body: xml, contentType: 'text/xml' });
    expect(failure(await call(server.url))).toMatchObject({ kind: 'fault', faultCode: 'Server', detail: `fault "Server": ${message}` });
  });
});

describe('kept-alive connections the server closed', () => {
  it('sends a call again on a new connection when the server closed the last one without saying so (Frontier::Daemon)', async () => {
    const { createServer } = await import('node:net');
    const { encodeMethodResponse } = await import('../../src/xmlrpc/codec.ts');
    const answer = Buffer.from(encodeMethodResponse({ interaction: [true, 0.5] }));
    let connections = 0;
    // HTTP/1.1, no "Connection: close", and the connection closed right after each answer.
    const server = createServer((socket) => {
      connections += 1;
      socket.on('error', () => {});
      socket.once('data', () =>
        socket.end(
          Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: ${answer.length}\r\n\r\n`), answer]),
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/RPC2`;
    const agent = createServerAgent({ connections: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        expect(await callXmlRpc({ url, body: BODY, deadlineMs: 5_000, maxResponseBytes: 1_000_000 }, agent)).toMatchObject({
          ok: true,
          value: { interaction: [true, 0.5] },
        });
      }
      expect(connections).toBeGreaterThanOrEqual(3);
    } finally {
      await agent.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('does not send again when a fresh connection is reset before the answer', async () => {
    const server = await serve({ kind: 'closeBeforeHeaders' });
    expect(failure(await call(server.url))).toMatchObject({ kind: 'connection' });
    expect(server.requests).toBe(1);
  });
});
