// What each server is sent: `given` only to servers registered for COREF, the metadata
// struct only to servers that asked for it; hints for failures that a usual mistake explains.
import { describe, expect, it } from 'vitest';
import { failureHint } from '../../src/dispatch/hints.ts';
import { describeParams, RequestBodies } from '../../src/dispatch/request-body.ts';
import { decodeMethodCall } from '../../src/xmlrpc/codec.ts';
import type { CallOutcome } from '../../src/dispatch/annotators/xmlrpc-call.ts';

const article = { id: 'a1', organiserId: 'PMC1', text: 'BRCA1 binds p53.', given: 'T1\tProtein 0 5\tBRCA1' };
const server = (tasks: string[], sendMetadata = false) => ({
  method: 'Annotator.getAnnotation',
  tasks: tasks as never[],
  sendMetadata,
  url: 'http://127.0.0.1:8000/',
});
const params = (body: Buffer) => decodeMethodCall(body).params;

describe('the call each server is sent', () => {
  it('sends given only to servers registered for COREF, whatever the challenge holds', () => {
    const bodies = new RequestBodies();
    expect(params(bodies.build(article, server(['MENTION', 'ACT'])))).toEqual([article.text]);
    expect(params(bodies.build(article, server(['MENTION', 'COREF'])))).toEqual([article.text, article.given]);
    expect(params(bodies.build(article, server(['INT'], true)))).toEqual([article.text, { article: 'PMC1', tasks: ['INT'] }]);
    expect(params(bodies.build(article, server(['COREF'], true)))).toEqual([
      article.text,
      article.given,
      { article: 'PMC1', tasks: ['COREF'] },
    ]);
  });

  it('describes the parameters sent and why', () => {
    expect(describeParams(server(['MENTION']))).toBe('1 parameter: text (the article)');
    expect(describeParams(server(['COREF'], true))).toBe(
      '3 parameters: text (the article), given (the COREF given proteins: the server is registered for COREF), meta (a struct {article, tasks}: the server asked for it at registration)',
    );
  });
});

describe('hints for failed calls', () => {
  const failed = (kind: 'fault' | 'http', detail: string, httpStatus?: number): Extract<CallOutcome, { ok: false }> => ({
    ok: false,
    kind,
    detail,
    httpStatus,
    ms: 1,
    bytesSent: 1,
    bytesReceived: 1,
  });

  it.each([
    "fault 1: <class 'TypeError'>:annotate() takes 1 positional argument but 2 were given",
    'fault -32602: wrong number of arguments (given 2, expected 1)',
    'fault 500: No method matching arguments: java.lang.String, java.lang.String',
    "fault 1: annotate() missing 1 required positional argument: 'given'",
  ])('says which parameters were sent when a fault is about their number: %s', (detail) => {
    expect(failureHint(failed('fault', detail), server(['COREF', 'MENTION']))).toBe(
      ' — the meta-server sent 2 parameters: text (the article), given (the COREF given proteins: the server is registered for COREF). ' +
        'A server registered for COREF or REL takes (text, given), any other (text) alone, plus meta only when asked for at registration',
    );
  });

  it('adds nothing to other faults', () => {
    expect(failureHint(failed('fault', 'fault 4: tagger crashed: index out of range'), server(['MENTION']))).toBe('');
  });

  it('says that header lines end in CR LF when the HTTP parser found one that did not', () => {
    const detail =
      'the server at 127.0.0.1:8000 did not answer with valid HTTP in the status line or headers: Response does not match the HTTP/1.1 protocol (Missing expected CR after header value)';
    const protocol = { ...failed('fault', detail), kind: 'protocol' as const };
    expect(failureHint(protocol, server(['MENTION']))).toMatch(/^ — HTTP header lines end in CR LF\. A CGI script must write them so/);
    expect(failureHint({ ...protocol, detail: 'malformed XML at line 1, column 3: expected LF' }, server(['MENTION']))).toBe('');
  });

  it('points at /RPC2 after a 404 or 403 elsewhere, and only then', () => {
    const at = (url: string) => ({ ...server(['MENTION']), url });
    expect(failureHint(failed('http', 'HTTP 404 Not Found', 404), at('http://tagger.example.org:8080/'))).toMatch(
      /answer only at \/RPC2 \(Python's SimpleXMLRPCServer, Perl's Frontier::Daemon, xmlrpc-c's Abyss server\): is the server's URL http:\/\/tagger\.example\.org:8080\/RPC2\?$/,
    );
    expect(failureHint(failed('http', 'HTTP 403 Forbidden', 403), at('http://h/xmlrpc'))).toMatch(
      /is the server's URL http:\/\/h\/RPC2\?$/,
    );
    expect(failureHint(failed('http', 'HTTP 404 Not Found', 404), at('http://h/RPC2'))).toBe('');
    expect(failureHint(failed('http', 'HTTP 500 Internal Server Error', 500), at('http://h/'))).toBe('');
  });
});
