// The protocol modules on their own: what each sends for an article, how each answer body
// becomes the answer struct the validators read (and what it reports on the way), and
// Retry-After as the asynchronous exchange reads it.
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/dispatch/annotators/http-call.ts';
import { AnswerFormatError } from '../../src/dispatch/annotators/outcome.ts';
import { DEFAULT_PROTOCOL, PROTOCOL_NAMES, protocolOf } from '../../src/dispatch/annotators/registry.ts';
import { readAnswerNow } from '../../src/dispatch/decode-and-validate.ts';
import { RequestBodies } from '../../src/dispatch/request-body.ts';

const TEXT = '𝛼-syn binds BRCA1.';
const indexes = { accessions: null, lookups: {} };
const read = (protocol: string, body: unknown, text = TEXT) =>
  readAnswerNow(
    Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    undefined,
    { tasks: ['MENTION'], text, given: '' },
    indexes,
    protocol,
  );

describe('the registry', () => {
  it('lists the protocols once, XML-RPC the default', () => {
    expect(PROTOCOL_NAMES).toEqual(['xmlrpc', 'json', 'pubannotation']);
    expect(DEFAULT_PROTOCOL).toBe('xmlrpc');
    expect(protocolOf(undefined).name).toBe('xmlrpc');
    expect(() => protocolOf('soap')).toThrow(/unknown annotator protocol "soap"; known: xmlrpc, json, pubannotation/);
  });
});

describe('request bodies', () => {
  const article = { id: 'a1', organiserId: 'PMC1', text: TEXT, given: 'T1\tProtein 0 5\t𝛼-syn' };
  const bodies = new RequestBodies();
  it('json: the text, given only to COREF servers, the metadata only when asked for', () => {
    expect(JSON.parse(bodies.build(article, { protocol: 'json', method: '', tasks: ['MENTION'], sendMetadata: false }).toString())).toEqual(
      { text: TEXT },
    );
    expect(JSON.parse(bodies.build(article, { protocol: 'json', method: '', tasks: ['COREF'], sendMetadata: true }).toString())).toEqual({
      text: TEXT,
      given: article.given,
      article: 'PMC1',
      tasks: ['COREF'],
    });
  });
  it('pubannotation: the text (and the article id as sourceid when metadata is asked for)', () => {
    expect(
      JSON.parse(bodies.build(article, { protocol: 'pubannotation', method: '', tasks: ['MENTION'], sendMetadata: false }).toString()),
    ).toEqual({ text: TEXT });
    expect(
      JSON.parse(bodies.build(article, { protocol: 'pubannotation', method: '', tasks: ['MENTION'], sendMetadata: true }).toString()),
    ).toEqual({ text: TEXT, sourceid: 'PMC1' });
  });
  it('xmlrpc: the method call, as before', () => {
    expect(bodies.build(article, { method: 'Tagger.run', tasks: ['MENTION'], sendMetadata: false }).toString()).toMatch(
      /^<\?xml[^>]*>\s*<methodCall><methodName>Tagger\.run<\/methodName><params><param><value><string>𝛼-syn binds BRCA1\.<\/string>/,
    );
  });
});

describe('reading answers', () => {
  it('json: the XML-RPC answer\'s keys, by the same validators; {"error"} is a fault', () => {
    const ok = read('json', { mentions: [{ offset: 12, mention: 'BRCA1', type: 'protein' }] });
    expect(ok.kind === 'value' && JSON.parse(ok.value.result)).toEqual({
      MENTION: [{ start: 12, end: 17, text: 'BRCA1', type: 'protein' }],
    });
    expect(read('json', { error: { code: 7, message: 'crashed' } })).toEqual({ kind: 'fault', code: 7, message: 'crashed' });
    expect(read('json', { error: 'out of memory' })).toEqual({ kind: 'fault', code: 0, message: 'out of memory' });
    expect(() => read('json', '\uFEFF{"mentions": []}')).not.toThrow();
    expect(() => readAnswerNow(Buffer.from('{}'), 'iso-8859-1', { tasks: ['MENTION'], text: TEXT, given: '' }, indexes, 'json')).toThrow(
      AnswerFormatError,
    );
    expect(() => read('json', '')).toThrow(/the answer is empty; a JSON object was expected/);
  });

  it('pubannotation: denotations become mentions, spans in code points, attributes kept, relations, other attributes and a missing type each with a warning', () => {
    const value = read('pubannotation', {
      text: TEXT,
      denotations: [
        { id: 'T1', span: { begin: 12, end: 17 }, obj: 'protein' },
        { id: 'T2', span: { begin: 0, end: 5 } },
      ],
      attributes: [
        { id: 'A1', subj: 'T1', pred: 'confidence', obj: 0.8 },
        { id: 'A2', subj: 'T1', pred: 'note', obj: 'x' },
      ],
      relations: [{ id: 'R1', subj: 'T1', obj: 'T2', pred: 'binds' }],
    });
    if (value.kind !== 'value') throw new Error('expected a value');
    expect(JSON.parse(value.value.result)).toEqual({
      MENTION: [
        { start: 12, end: 17, text: 'BRCA1', type: 'protein', confidence: 0.8 },
        { start: 0, end: 5, text: '𝛼-syn' },
      ],
    });
    expect(value.value.firstWarnings).toEqual([
      {
        path: 'attributes',
        message: '1 attribute ignored (pred "note"): only confidence, rank, section, type and ids (denotes, identifier…) are read',
      },
      {
        path: 'relations',
        message:
          '1 relation ignored: only a relation (pred) between two denotations with concept ids is read, as a relation between concepts (concept_relations)',
      },
      {
        path: 'denotations[1].obj',
        message: '1 denotation without a type ("obj" null or absent: denotations[1]) kept as untyped mentions',
      },
    ]);
  });

  it("pubannotation: what is wrong is named by the denotation, the validators' findings too", () => {
    const value = read('pubannotation', {
      text: 'another text',
      denotations: [
        { id: 'T1', span: { begin: 12, end: 17 }, obj: 'protein' },
        { id: 'T2', span: { begin: 'a', end: 3 } },
        { span: { begin: 0, end: 5 }, obj: 7 },
      ],
    });
    if (value.kind !== 'value') throw new Error('expected a value');
    expect(value.value.firstErrors).toEqual([
      {
        path: 'text',
        message: "the answer's text differs from the text sent (first at character 0): spans must refer to the text exactly as sent",
      },
      {
        path: 'denotations[1].span',
        message: 'begin and end must be whole numbers ≥ 0 (character positions in the text), got {"begin":"a","end":3}',
      },
      { path: 'denotations[2].obj', message: 'expected the type as a string, got 7' },
    ]);
    // A challenge's mention types apply as to every mention; the path is the denotation's.
    const typed = readAnswerNow(
      Buffer.from(JSON.stringify({ denotations: [{ id: 'T1', span: { begin: 12, end: 17 }, obj: 'Gene' }] })),
      undefined,
      { tasks: ['MENTION'], text: TEXT, given: '', mentionTypes: ['protein'] },
      indexes,
      'pubannotation',
    );
    if (typed.kind !== 'value') throw new Error('expected a value');
    expect(typed.value.firstErrors).toEqual([
      { path: 'denotations[0].obj', message: '"Gene" is not a mention type of this challenge (protein)' },
    ]);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; anything else is no advice', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(' 120 ')).toBe(120_000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
