// The interop matrix: annotation servers built on real XML-RPC libraries (stacks.ts) and
// six kinds of article (articles.ts), through the whole path — registration and its setup
// check, dispatch, validation, storage — on one meta-server (private Redis; PGlite, or
// PostgreSQL when DATABASE_URL is set). Every case either stores exactly what the server
// computed, offsets included, or records the failure kind with a detail naming the cause.
// Then four probes per server through the setup check's code path: an unknown method, a
// second parameter the handler does not take, a handler that dies, and a wrong path.
// INTEROP_TABLE=FILE writes the library × article table (markdown) there.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textAsSent } from '../../src/articles/input.ts';
import { AnswerReader } from '../../src/dispatch/answer-reader.ts';
import { CHECK_ARTICLE, checkArticle, type ServerToCheck } from '../../src/servers/setup-check/call-server.ts';
import { codePointLength } from '../../src/shared/code-points.ts';
import { request } from 'undici';
import { callXmlRpc, createServerAgent } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { isRelevant, MATRIX_ARTICLES, mentionsCountedIn } from './articles.ts';
import { STACKS, type OffsetUnit, type RunningStack, type Stack } from './stacks.ts';

interface Expected {
  outcome: string;
  detail?: RegExp;
}

const UNIT_HINT: Record<Exclude<OffsetUnit, 'code points'>, RegExp> = {
  'UTF-16 units': /it occurs at offset \d+ \(offsets count Unicode code points\): \d+ is where it starts counted in UTF-16 units/,
  'UTF-8 bytes': /it occurs at offset \d+ \(offsets count Unicode code points\): \d+ is where it starts counted in UTF-8 bytes/,
};
const NO_NON_BMP: Expected = {
  outcome: 'fault',
  detail: /^fault -503: .*UTF-8 string contains a character not in the Basic Multilingual Plane/,
};
const BARE_LF_HEADERS: Expected = {
  outcome: 'protocol',
  detail: /\(Missing expected CR after header value\) — HTTP header lines end in CR LF/,
};

/** What a stack does other than its offset unit predicts, by article id ('setup' for the setup check, '*' for all). */
const DEVIATIONS: Record<string, Record<string, Expected>> = {
  // xmlrpc-c 1.33 refuses every call holding a character outside the BMP.
  'xmlrpc-c': { setup: NO_NON_BMP, 'non-bmp': NO_NON_BMP },
  // CGIXMLRPCRequestHandler ends its header lines with LF alone; http.server passes them on.
  'Python CGI (http.server)': { '*': BARE_LF_HEADERS },
};

const ARITY_HINT =
  /— the meta-server sent 2 parameters: text \(the article\), given \(the COREF given proteins: the server is registered for COREF\)\./;
const PATH_HINT =
  /answer only at \/RPC2 \(Python's SimpleXMLRPCServer, Perl's Frontier::Daemon, xmlrpc-c's Abyss server\): is the server's URL http:\/\/127\.0\.0\.1:\d+\/RPC2\?$/;

/** The probes' outcomes, as the libraries behave (Perl subs take any number of arguments). */
const PROBES: Record<string, Record<'unknown method' | 'second parameter' | 'handler dies' | 'wrong path', Expected>> = {
  'RPC::XML': {
    'unknown method': { outcome: 'fault', detail: /^fault 200: .*Annotator\.nope/ },
    'second parameter': { outcome: 'fault', detail: /^fault 201: .*no matching signature.*/ },
    'handler dies': { outcome: 'fault', detail: /^fault 300: .*the tagger crashed/ },
    'wrong path': { outcome: 'ok' },
  },
  Frontier: {
    'unknown method': { outcome: 'fault', detail: /^fault 3: no such method `Annotator\.nope'/ },
    'second parameter': { outcome: 'ok' },
    'handler dies': { outcome: 'fault', detail: /^fault 4: error executing RPC `Annotator\.crash'\.\nthe tagger crashed\n$/ },
    'wrong path': { outcome: 'http', detail: /^HTTP 403 Forbidden.*/ },
  },
  'XMLRPC::Lite': {
    'unknown method': { outcome: 'fault', detail: /^fault "Client": Failed to access class \(Annotator\)/ },
    'second parameter': { outcome: 'ok' },
    'handler dies': { outcome: 'fault', detail: /^fault "Server": the tagger crashed\n$/ },
    'wrong path': { outcome: 'ok' },
  },
  'ruby-xmlrpc': {
    'unknown method': { outcome: 'fault', detail: /^fault 1: Method Annotator\.nope missing or wrong number of parameters!/ },
    'second parameter': { outcome: 'fault', detail: /^fault 1: Method Annotator\.getAnnotation missing or wrong number of parameters!/ },
    'handler dies': { outcome: 'fault', detail: /^fault 2: Uncaught exception the tagger crashed in method Annotator\.crash$/ },
    'wrong path': { outcome: 'ok' },
  },
  'xmlrpc-c': {
    'unknown method': { outcome: 'fault', detail: /^fault -506: .*Annotator\.nope/ },
    'second parameter': {
      outcome: 'fault',
      detail: /^fault -502: Format string requests exactly 1 items from array, but array has 2 items/,
    },
    'handler dies': { outcome: 'fault', detail: /^fault 500: the tagger crashed$/ },
    'wrong path': { outcome: 'http', detail: /^HTTP 404 Not Found/ },
  },
  Python: {
    'unknown method': { outcome: 'fault', detail: /^fault 1: <class 'Exception'>:method "Annotator\.nope" is not supported$/ },
    'second parameter': {
      outcome: 'fault',
      detail: /^fault 1: <class 'TypeError'>:annotate\(\) takes 1 positional argument but 2 were given/,
    },
    'handler dies': { outcome: 'fault', detail: /^fault 1: <class 'RuntimeError'>:the tagger crashed$/ },
    'wrong path': { outcome: 'http', detail: /^HTTP 404 Not Found/ },
  },
  'Apache (UTF-8)': {
    'unknown method': { outcome: 'fault', detail: /^fault 0: No such handler: Annotator\.nope$/ },
    'second parameter': { outcome: 'fault', detail: /^fault 0: No method matching arguments: java\.lang\.String, java\.lang\.String/ },
    'handler dies': { outcome: 'fault', detail: /^fault 0: java\.lang\.IllegalStateException: the tagger crashed$/ },
    'wrong path': { outcome: 'http', detail: /^HTTP 404 Not Found/ },
  },
};
PROBES['Python threaded'] = PROBES.Python!;
PROBES['Python CGI'] = { ...PROBES.Python, 'wrong path': { outcome: 'http', detail: /^HTTP 404 Not Found/ } };
PROBES['Apache (ISO-8859-1)'] = PROBES['Apache (UTF-8)']!;
PROBES['Python CGI (http.server)'] = {
  'unknown method': BARE_LF_HEADERS,
  'second parameter': BARE_LF_HEADERS,
  'handler dies': BARE_LF_HEADERS,
  'wrong path': { outcome: 'http', detail: /^HTTP 501 Not Implemented.*Can only POST to CGI scripts/ },
};

/** What the stack should come to on a text (as sent), from its offset unit and known deviations. */
function expectedFor(stack: Stack, articleId: string, text: string): Expected & { mentions?: unknown[]; act?: unknown } {
  const deviation = DEVIATIONS[stack.name]?.[articleId] ?? DEVIATIONS[stack.name]?.['*'];
  if (deviation) return deviation;
  const sent = mentionsCountedIn(text, stack.unit);
  const right = mentionsCountedIn(text, 'code points');
  if (JSON.stringify(sent) !== JSON.stringify(right))
    return { outcome: 'invalid', detail: UNIT_HINT[stack.unit as keyof typeof UNIT_HINT] };
  return {
    outcome: 'ok',
    mentions: right.map((m) => ({ start: m.offset, end: m.offset + codePointLength(m.mention), text: m.mention, type: 'protein' })),
    act: { relevant: isRelevant(text), confidence: 0.75 },
  };
}

const byStart = (list: Array<{ start: number; text: string }>) =>
  [...list].sort((a, b) => a.start - b.start || a.text.localeCompare(b.text));

/** A short cell for the table: the outcome and what named its cause. */
function cell(outcome: string, detail: string | null | undefined): string {
  if (outcome === 'ok') return 'ok';
  const d = detail ?? '';
  const cause = /counted in UTF-16 units/.test(d)
    ? 'UTF-16 offsets (hint)'
    : /counted in UTF-8 bytes/.test(d)
      ? 'UTF-8 byte offsets (hint)'
      : /Basic Multilingual Plane/.test(d)
        ? 'library refuses non-BMP'
        : /header lines end in CR LF/.test(d)
          ? 'header lines end in LF (hint)'
          : /the meta-server sent 2 parameters/.test(d)
            ? `${/^fault ("\w+"|-?\d+)/.exec(d)?.[1] ?? ''} arity (hint)`
            : /answer only at \/RPC2/.test(d)
              ? `${/^HTTP (\d+)/.exec(d)?.[1] ?? ''} (/RPC2 hint)`
              : (/^fault ("\w+"|-?\d+)/.exec(d)?.[1] ?? /^HTTP (\d+)/.exec(d)?.[1] ?? '');
  return `${outcome} ${cause}`.trim();
}

let ms: TestMetaserver;
const running = new Map<string, RunningStack>();
const table = new Map<string, Record<string, string>>(STACKS.map((s) => [s.name, {}]));

beforeAll(async () => {
  // Long locks: a loaded machine must not make a slow call look like a stalled job (a second attempt).
  ms = await startTestMetaserver({ config: { lockDurationMs: 60_000, stalledIntervalMs: 30_000 } });
  const started = await Promise.allSettled(STACKS.map(async (s) => running.set(s.name, await s.start())));
  const failed = started.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) throw new Error(failed.map((f) => String(f.reason)).join('\n'));
}, 120_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((s) => s.stop()));
  await ms?.stop();
  if (process.env.INTEROP_TABLE) {
    const columns = [
      'setup check',
      ...MATRIX_ARTICLES.map((a) => a.kind),
      'unknown method',
      'second parameter',
      'handler dies',
      'wrong path',
    ];
    const lines = [`| library | ${columns.join(' | ')} |`, `| --- | ${columns.map(() => '---').join(' | ')} |`];
    for (const s of STACKS) lines.push(`| ${s.library} | ${columns.map((c) => table.get(s.name)![c] ?? '').join(' | ')} |`);
    writeFileSync(process.env.INTEROP_TABLE, `${lines.join('\n')}\n`);
  }
}, 60_000);

describe('real XML-RPC stacks × six kinds of article, through the whole path', () => {
  it('stores exactly what each server computed, or records the failure with its cause', async () => {
    // COREF is in the challenge, as in a live one, but no server here is registered for it:
    // none may be sent `given` (each handler takes one parameter).
    await ms.challenge('interop', { name: 'Interop', tasks: ['ACT', 'MENTION', 'COREF'], maxAttempts: 1, timeoutSeconds: 60 });
    const servers = new Map<string, { id: number; token: string }>();
    for (const stack of STACKS) {
      const token = (await ms.team(`${stack.name} team`)).token;
      const server = await ms.server('interop', token, { name: stack.name, url: running.get(stack.name)!.url, tasks: ['ACT', 'MENTION'] });
      servers.set(stack.name, { id: server.id, token });
      const expected = expectedFor(stack, 'setup', CHECK_ARTICLE);
      table.get(stack.name)!['setup check'] = cell(server.check.outcome, server.check.detail);
      expect({ stack: stack.name, outcome: server.check.outcome }).toEqual({ stack: stack.name, outcome: expected.outcome });
      if (expected.detail) expect(server.check.detail).toMatch(expected.detail);
    }
    const articles = MATRIX_ARTICLES.map((a) => ({ id: a.id, text: a.raw }));
    const loaded = await ms.articles('interop', articles);
    for (const s of servers.values()) await ms.startServer(s.id, s.token);

    for (const article of MATRIX_ARTICLES) {
      const view = await waitFor(
        `every server's answer to the ${article.kind} article`,
        async () => {
          const res = await ms.request('GET', `/api/articles/${loaded.ids[article.id]}`, undefined, ADMIN_TOKEN);
          return res.body.status === 'done' ? res.body : undefined;
        },
        120_000,
      );
      expect(view.text).toBe(textAsSent(article.raw));
      for (const stack of STACKS) {
        const row = view.servers.find((x: { serverId: number }) => x.serverId === servers.get(stack.name)!.id);
        const expected = expectedFor(stack, article.id, textAsSent(article.raw));
        const where = `${stack.name} × ${article.kind}`;
        table.get(stack.name)![article.kind] = cell(row.lastOutcome, row.lastDetail);
        expect({ where, outcome: row.lastOutcome, state: row.state, attempts: row.attempts }).toEqual({
          where,
          outcome: expected.outcome,
          state: expected.outcome === 'ok' ? 'done' : 'failed',
          attempts: 1,
        });
        if (expected.outcome === 'ok') {
          expect({ where, mentions: byStart(row.result.MENTION), act: row.result.ACT, warnings: row.warnings }).toEqual({
            where,
            mentions: byStart(expected.mentions as never),
            act: expected.act,
            warnings: [],
          });
        } else {
          expect(row.result, where).toBeUndefined();
          expect(row.lastDetail, where).toMatch(expected.detail!);
        }
      }
    }
    // The team sees the same details, hints included, in its server's error report.
    const c = servers.get('xmlrpc-c')!;
    const report = (await ms.request('GET', `/api/servers/${c.id}`, undefined, c.token)).body;
    expect(report.errors).toContainEqual(
      expect.objectContaining({ article: 'accents', kind: 'invalid', detail: expect.stringMatching(UNIT_HINT['UTF-8 bytes']) }),
    );
    expect(report.errors).toContainEqual(
      expect.objectContaining({ article: 'non-bmp', kind: 'fault', detail: expect.stringMatching(NO_NON_BMP.detail!) }),
    );
  }, 300_000);

  it("reads Apache XML-RPC's wire forms: surrogate pair references, ex:i8 and ex:float, a charset in the Content-Type only", async () => {
    const url = running.get('Apache (ISO-8859-1)')!.url;
    const body = encodeMethodCall('Annotator.getAnnotation', [textAsSent(MATRIX_ARTICLES.find((a) => a.id === 'non-bmp')!.raw)]);
    const raw = await request(url, { method: 'POST', body, headers: { 'content-type': 'text/xml' } });
    expect(raw.headers['content-type']).toBe('text/xml; charset=ISO-8859-1');
    const wire = await raw.body.text();
    expect(wire).toMatch(/^<\?xml version="1\.0"\?>/);
    expect(wire).toContain('<value>&#55349;&#57084;-synuclein</value>');
    expect(wire).toContain('<ex:i8>0</ex:i8>');
    expect(wire).toContain('<ex:float>0.75</ex:float>');
    const decoded = await callXmlRpc({ url, body, deadlineMs: 10_000, maxResponseBytes: 1_000_000 });
    expect(decoded).toMatchObject({ ok: true, value: { interaction: [true, 0.75] } });
    expect((decoded as unknown as { value: { mentions: unknown[] } }).value.mentions).toContainEqual({
      offset: 0,
      mention: '𝛼-synuclein',
      type: 'protein',
    });
  });

  it('reports unknown methods, a second parameter, dying handlers and wrong paths as each library words them, with hints', async () => {
    const article = MATRIX_ARTICLES.find((a) => a.id === 'ascii')!;
    await Promise.all(
      STACKS.map(async (stack) => {
        // One connection per server, as `metaserver check-server` uses: several servers here serve one connection at a time.
        const opts = {
          deadlineMs: 30_000,
          maxAnswerBytes: 20 * 1024 * 1024,
          answers: new AnswerReader(),
          publicUrlsOnly: false,
          agent: createServerAgent({ connections: 1 }),
        };
        const url = running.get(stack.name)!.url;
        const elsewhere = new URL(url);
        elsewhere.pathname = '/xmlrpc';
        const base: ServerToCheck = { url, method: 'Annotator.getAnnotation', tasks: ['ACT', 'MENTION'], sendMetadata: false };
        const probes: Array<[keyof (typeof PROBES)[string], ServerToCheck]> = [
          ['unknown method', { ...base, method: 'Annotator.nope' }],
          ['second parameter', { ...base, tasks: ['ACT', 'MENTION', 'COREF'] }],
          ['handler dies', { ...base, method: 'Annotator.crash' }],
          ['wrong path', { ...base, url: elsewhere.toString() }],
        ];
        for (const [probe, server] of probes) {
          const { verdict } = await checkArticle(
            server,
            { id: article.id, text: textAsSent(article.raw), given: 'T1\tProtein 0 5\tBRCA1' },
            opts,
          );
          const detail = verdict.outcome === 'ok' ? undefined : verdict.detail;
          const expected = PROBES[stack.name][probe];
          const where = `${stack.name}: ${probe}`;
          table.get(stack.name)![probe] = cell(verdict.outcome, detail);
          expect({ where, outcome: verdict.outcome }).toEqual({ where, outcome: expected.outcome });
          if (expected.detail) expect(detail, where).toMatch(expected.detail);
          // The hints: which parameters were sent, on every fault about their number; /RPC2 after a 403 or 404 elsewhere.
          if (probe === 'second parameter' && verdict.outcome === 'fault') expect(detail, where).toMatch(ARITY_HINT);
          if (probe === 'wrong path' && verdict.outcome === 'http' && /^HTTP 40[34]/.test(detail!))
            expect(detail, where).toMatch(PATH_HINT);
        }
        await Promise.all([opts.agent.close(), opts.answers.close()]);
      }),
    );
  }, 120_000);
});
