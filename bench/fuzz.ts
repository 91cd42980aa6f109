// Seeded fuzzing: malformed HTTP bodies to every route that takes one; hostile URLs to every
// route (ids past the integer range, NUL and lone surrogates, broken %-escapes, over-long
// parameters, odd query strings, unknown content types, any method); server registrations
// with URLs that embed loopback or metadata addresses; and malformed XML-RPC answers to the
// decoder and, through a loopback server, to the client. Counts what came back, and the 5xx
// per thousand HTTP requests (the goal is 0); any crash (an exception where an answer was
// due) or HTTP 5xx is a failure.
// Repeated query parameters go to every registered route (a 400 each, never a 5xx).
//   node --import tsx bench/fuzz.ts        (FUZZ_SEED, FUZZ_HTTP, FUZZ_URLS, FUZZ_REPEATS, FUZZ_DECODE, FUZZ_CLIENT)
import { createServer } from 'node:http';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { createLogger } from '../src/log.ts';
import { createRuntime } from '../src/runtime.ts';
import { annotate } from '../src/sample/annotator.ts';
import { decodeMethodResponse, encodeMethodResponse } from '../src/xmlrpc/codec.ts';
import { callXmlRpc, createServerAgent } from '../src/dispatch/annotators/xmlrpc-call.ts';
import { XmlRpcProtocolError } from '../src/xmlrpc/errors.ts';
import { startPrivateRedis } from '../test/support/private-redis.ts';
import { routesOf } from '../src/auth/access.ts';

let seed = Number(process.env.FUZZ_SEED ?? 1);
const rnd = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const STRINGS = [
  '',
  'x',
  'BRCA1',
  '𝛼-synuclein 😀',
  '\u0000',
  '\ud800',
  'a'.repeat(5000),
  'http://127.0.0.1:9/',
  'INT',
  'MENTION',
  'test',
  'closed',
  '__proto__',
  'constructor',
  '<b>&amp;</b>',
  '1e309',
  '-1',
];
const KEYS = [
  'text',
  'xml',
  'id',
  'tasks',
  'name',
  'contact',
  'url',
  'slug',
  'phase',
  'articles',
  'servers',
  'concurrency',
  'timeoutSeconds',
  'maxAttempts',
  'given',
  'callbackUrl',
  '__proto__',
  'constructor',
  'method',
  'sendMetadata',
  'suite',
  'seed',
];
function value(depth: number): unknown {
  const k = depth > 4 ? int(4) : int(8);
  switch (k) {
    case 0:
      return pick(STRINGS);
    case 1:
      return pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 1e21]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return pick(['INT', 'ACT', 'NOPE']);
    case 4:
    case 5:
      return Array.from({ length: int(4) }, () => value(depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: int(5) }, () => [pick(KEYS), value(depth + 1)]));
  }
}
/** One malformed body: structured nonsense, corrupted JSON, invalid UTF-8, deep nesting, huge numbers, or noise. */
function body(): { payload: Buffer; type: string } {
  const json = Buffer.from(JSON.stringify(value(0)) ?? 'null');
  switch (int(10)) {
    case 0:
      return { payload: json, type: 'application/json' };
    case 1:
      return { payload: json.subarray(0, int(json.length + 1)), type: 'application/json' };
    case 2: {
      const b = Buffer.from(json);
      for (let i = 0; i < 1 + int(4); i++) b[int(b.length)] = int(256);
      return { payload: b, type: 'application/json' };
    }
    case 3:
      return {
        payload: Buffer.concat([json.subarray(0, 3), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), json.subarray(3)]),
        type: 'application/json',
      };
    case 4: {
      const d = 1 + int(20_000);
      return { payload: Buffer.from('['.repeat(d) + ']'.repeat(int(2) ? d : 0)), type: 'application/json' };
    }
    case 5:
      return { payload: Buffer.from(`{"text":${'9'.repeat(1 + int(5000))},"concurrency":1e99999}`), type: 'application/json' };
    case 6:
      return {
        payload: Buffer.from(Array.from({ length: int(200) }, () => int(256))),
        type: pick(['application/json', 'text/plain', 'text/xml', 'application/octet-stream']),
      };
    case 7:
      return {
        payload: json,
        type: pick([
          'text/plain',
          'text/tab-separated-values',
          'text/xml',
          'multipart/form-data',
          'application/x-www-form-urlencoded',
          'bogus',
          'application/json; charset=latin1',
        ]),
      };
    case 8:
      return {
        payload: Buffer.from(
          Array.from(
            { length: 1 + int(5) },
            () => `${pick(STRINGS)}\t${pick(['P38398', '\u0000', '\ud800', 'x'])}\t${pick(['1', '-1', '1e309', ''])}\t0.${int(10)}`,
          ).join('\n'),
        ),
        type: pick(['text/plain', 'text/tab-separated-values']),
      };
    default:
      return { payload: Buffer.from(''), type: 'application/json' };
  }
}
/** Loopback traffic only: a body naming any other host (after a lucky corruption) is not sent. */
function onlyLoopback(payload: Buffer): boolean {
  const urls = payload.toString('latin1').match(/[a-z][a-z0-9+.-]*:\/\/[^"\s]*/gi) ?? [];
  return urls.every((u) => {
    try {
      return /^(127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(u).hostname);
    } catch {
      return true;
    }
  });
}

const redis = await startPrivateRedis();
const db = await openPglite();
await migrate(db);
const config = loadConfig(
  {},
  {
    redisUrl: redis.url,
    adminToken: 'fuzz-admin-token-0123456789',
    logLevel: 'silent',
    queuePrefix: 'fuzz',
    submitRateLimitPerMinute: 1_000_000,
    checkTimeoutSeconds: 1,
  },
);
const rt = await createRuntime({ config, log: createLogger(config), db, api: true, workers: false });
const app = rt.app!;
const admin = { authorization: `Bearer ${config.adminToken}` };
await app.inject({
  method: 'POST',
  url: '/api/challenges',
  headers: admin,
  payload: { slug: 'fz', name: 'Fuzz', tasks: ['INT', 'MENTION'] },
});
const team = (await app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'fuzzers', contact: 'f@example.org' } })).json()
  .token as string;
// Something for the routes to find: a server (on a closed port: checks fail at once), a challenge article, an on-demand one.
const teamAuth = { authorization: `Bearer ${team}` };
const serverId = String(
  (
    await app.inject({
      method: 'POST',
      url: '/api/challenges/fz/servers',
      headers: teamAuth,
      payload: { name: 'closed', url: 'http://127.0.0.1:9/RPC2', tasks: ['INT'] },
    })
  ).json().id,
);
await app.inject({
  method: 'POST',
  url: '/api/challenges/fz/articles',
  headers: admin,
  payload: { articles: [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53.' }] },
});
const liveArticle = (await app.inject({ method: 'POST', url: '/api/articles', payload: { text: 'BRCA1 binds TP53.' } })).json()
  .id as string;
const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
}>();
const params: Record<string, string> = { slug: 'fz', task: 'INT', kind: 'ho', id: serverId, name: 'suite', serverId, format: 'tsv' };
const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.keys(ops)
    .filter((m) => ['post', 'put', 'patch'].includes(m))
    .map((m) => ({ method: m.toUpperCase(), url: path.replace(/\{(\w+)\}/g, (_, p: string) => params[p] ?? 'x') })),
);

const HTTP = Number(process.env.FUZZ_HTTP ?? 6000);
const statuses: Record<string, number> = {};
let http500 = 0,
  crashes = 0,
  skipped = 0;
for (let i = 0; i < HTTP; i++) {
  const r = routes[i % routes.length];
  const b = body();
  if (!onlyLoopback(b.payload)) {
    skipped++;
    continue;
  }
  try {
    const res = await app.inject({
      method: r.method as 'POST',
      url: r.url,
      payload: b.payload,
      headers: { 'content-type': b.type, ...(int(2) ? admin : { authorization: `Bearer ${team}` }) },
    });
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      http500++;
      if (http500 <= 5)
        process.stderr.write(`500: ${r.method} ${r.url} ${b.payload.subarray(0, 120).toString('latin1')} → ${res.body.slice(0, 200)}\n`);
    }
  } catch (err) {
    crashes++;
    process.stderr.write(`crash: ${r.method} ${r.url}: ${(err as Error).message}\n`);
  }
}

// Hostile URLs: every route of the OpenAPI document and the web pages, any method, each
// parameter good or hostile, query strings with known and unknown keys.
const HOSTILE = [
  '2147483648',
  '99999999999999999999',
  '-1',
  '0',
  '1e3',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%zz',
  '%',
  '%C0%AF',
  'x'.repeat(150),
  '..',
  '%2e%2e',
  '%2F',
  '%F0%9D%9B%BC',
  '__proto__',
  'constructor',
  '%20',
  '%3Cscript%3E',
  "'",
  '%22',
  ';',
  '*',
  'live',
  'A1',
  liveArticle,
  serverId,
  `${serverId}%00`,
];
const QUERY_KEYS = [
  'server',
  'model',
  'weights',
  'threshold',
  'text',
  'method',
  'cutoff',
  'all',
  'ho',
  'of',
  'beta',
  'format',
  'columns',
  'by',
  'singles',
  'consensus',
  'singleClass',
  '__proto__',
  'x',
];
const WEB = [
  '/',
  '/team',
  '/organiser',
  '/servers/{id}',
  '/articles/{id}',
  '/challenges/{slug}/leaderboard/{task}',
  '/fragments/articles/{id}',
  '/fragments/servers/{id}',
  '/fragments/team/servers',
  '/fragments/organiser',
  '/fragments/challenges/{slug}/leaderboard/{task}',
  '/testsuites/{name}/report',
  '/healthz',
  '/metrics',
];
const templates = [
  ...Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path }))),
  ...WEB.map((path) => ({ method: 'GET', path })),
];
/** encodeURIComponent, with a lone surrogate's would-be UTF-8 bytes where it throws. */
const encode = (x: string) => {
  try {
    return encodeURIComponent(x);
  } catch {
    return '%ED%A0%80';
  }
};
const goodValue = (name: string, path: string) =>
  name === 'id' && path.includes('articles') ? (path.includes('challenges') ? 'A1' : liveArticle) : (params[name] ?? 'x');
const URLS = Number(process.env.FUZZ_URLS ?? 4000);
const urlStatuses: Record<string, number> = {};
let url5xx = 0,
  urlCrashes = 0;
for (let i = 0; i < URLS; i++) {
  const t = templates[i % templates.length];
  const method = int(8) === 0 ? pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) : t.method;
  const path = t.path.replace(/\{(\w+)\}/g, (_, p: string) => (int(2) ? pick(HOSTILE) : encode(goodValue(p, t.path))));
  const query = Array.from({ length: int(4) }, () => `${pick(QUERY_KEYS)}=${int(3) ? pick(HOSTILE) : encode(pick(STRINGS))}`).join('&');
  const b = ['POST', 'PUT', 'PATCH'].includes(method) && int(2) ? body() : undefined;
  if (b && !onlyLoopback(b.payload)) {
    skipped++;
    continue;
  }
  const url = query ? `${path}?${query}` : path;
  const auth = [undefined, admin, teamAuth][int(3)];
  try {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(b ? { payload: b.payload } : {}),
      headers: { ...(b ? { 'content-type': b.type } : {}), ...auth },
    });
    urlStatuses[res.statusCode] = (urlStatuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      url5xx++;
      if (url5xx <= 5) process.stderr.write(`5xx: ${method} ${url} → ${res.body.slice(0, 200)}\n`);
    }
  } catch (err) {
    urlCrashes++;
    process.stderr.write(`crash: ${method} ${url}: ${(err as Error).message}\n`);
  }
}

// Repeated query parameters: every route fastify registered (API, pages, fragments, docs),
// one query key given two to four times with good or hostile values, by anyone. The rule
// is one value per parameter: anything but a 400 `repeated_parameter` is counted.
const registered = routesOf(app).filter((r) => r.method !== 'HEAD');
const REPEATS = Number(process.env.FUZZ_REPEATS ?? 1000);
const repeatStatuses: Record<string, number> = {};
let repeat5xx = 0,
  repeatOther = 0,
  repeatCrashes = 0;
for (let i = 0; i < REPEATS; i++) {
  const r = registered[i % registered.length];
  const path = r.url.replace(/:(\w+)/g, (_, p: string) => encode(goodValue(p, r.url))).replace('*', 'index.html');
  const key = pick(QUERY_KEYS);
  const query = Array.from({ length: 2 + int(3) }, () => `${key}=${int(2) ? pick(HOSTILE) : encode(pick(STRINGS))}`).join('&');
  const url = `${path}?${query}`;
  try {
    const res = await app.inject({ method: r.method as 'GET', url, headers: { ...[undefined, admin, teamAuth][int(3)] } });
    repeatStatuses[res.statusCode] = (repeatStatuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      repeat5xx++;
      if (repeat5xx <= 5) process.stderr.write(`5xx: ${r.method} ${url} → ${res.body.slice(0, 200)}\n`);
    }
    // A %-escape that is not UTF-8 (bad_url) or NUL (invalid_text) may be refused first; both are 400s too.
    else if (res.statusCode !== 400) {
      repeatOther++;
      if (repeatOther <= 5) process.stderr.write(`not refused: ${r.method} ${url} → ${res.statusCode}\n`);
    }
  } catch (err) {
    repeatCrashes++;
    process.stderr.write(`crash: ${r.method} ${url}: ${(err as Error).message}\n`);
  }
}

// Server URLs that embed loopback or metadata addresses, on a public deployment's policy.
const policed = await createRuntime({
  config: { ...config, publicUrlsOnly: true, queuePrefix: 'fuzz-policy' },
  log: createLogger(config),
  db,
  api: true,
  workers: false,
});
const HOSTS = [
  '127.0.0.1',
  '[::1]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[2002:7f00:1::1]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '169.254.169.254',
  '[fd00:ec2::254]',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
  'metadata.google.internal',
  'localhost',
  '0',
  '0x7f.1',
  '2130706433',
  '[::]',
  '[fe80::1%25eth0]',
];
const POLICY = Number(process.env.FUZZ_POLICY ?? 400);
const policyStatuses: Record<string, number> = {};
let policy5xx = 0,
  policyAccepted = 0;
for (let i = 0; i < POLICY; i++) {
  const url = `${pick(['http', 'https', 'ftp', 'HTTP'])}://${pick(HOSTS)}:${pick(['9', '80', '8000'])}/${pick(['RPC2', '', '%00'])}`;
  const res = await policed.app!.inject({
    method: 'POST',
    url: '/api/challenges/fz/servers',
    headers: teamAuth,
    payload: { name: `p${i}`, url, tasks: ['INT'] },
  });
  policyStatuses[res.statusCode] = (policyStatuses[res.statusCode] ?? 0) + 1;
  if (res.statusCode === 201) {
    policyAccepted++;
    process.stderr.write(`accepted on a public deployment: ${url}\n`);
  }
  if (res.statusCode >= 500) {
    policy5xx++;
    if (policy5xx <= 5) process.stderr.write(`5xx: register ${url} → ${res.body.slice(0, 200)}\n`);
  }
}
await policed.close();

const good = encodeMethodResponse(annotate('BRCA1 (P38398) binds TP53 and SNCA.', ''));
const EVIL = [
  '<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>',
  '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
  '&e;',
  '<value><int>99999999999999999999</int></value>',
  '<value><double>1e400</double></value>',
  '<value><i4>-2147483649</i4></value>',
  '<value><array><data>'.repeat(200),
  '<![CDATA[x]]>',
  '<?xml version="1.1"?>',
  '\u0000',
  '<value><dateTime.iso8601>nope</dateTime.iso8601></value>',
  '<value><base64>!!!</base64></value>',
];
function answer(): Buffer {
  const b = Buffer.from(good);
  switch (int(5)) {
    case 0:
      return b.subarray(0, int(b.length));
    case 1: {
      for (let i = 0; i < 1 + int(8); i++) b[int(b.length)] = int(256);
      return b;
    }
    case 2: {
      const at = int(b.length);
      return Buffer.concat([b.subarray(0, at), Buffer.from(pick(EVIL)), b.subarray(at)]);
    }
    case 3: {
      const d = 1 + int(3000);
      return Buffer.from(
        `<?xml version="1.0"?><methodResponse><params><param>${'<value><array><data>'.repeat(d)}</param></params></methodResponse>`,
      );
    }
    default:
      return Buffer.from(Array.from({ length: int(300) }, () => int(256)));
  }
}
const DECODE = Number(process.env.FUZZ_DECODE ?? 10_000);
let decodedOk = 0,
  refused = 0,
  decodeCrashes = 0;
for (let i = 0; i < DECODE; i++) {
  try {
    decodeMethodResponse(answer());
    decodedOk++;
  } catch (err) {
    if (err instanceof XmlRpcProtocolError) refused++;
    else {
      decodeCrashes++;
      if (decodeCrashes <= 5) process.stderr.write(`decoder crash: ${(err as Error).stack}\n`);
    }
  }
}

// Through the client: a loopback server answers each call with the next fuzzed answer.
let next: Buffer = Buffer.alloc(0);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(next);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const agent = createServerAgent({ connections: 4 });
const CLIENT = Number(process.env.FUZZ_CLIENT ?? 2000);
const kinds: Record<string, number> = {};
let clientCrashes = 0;
for (let i = 0; i < CLIENT; i++) {
  next = answer();
  try {
    const out = await callXmlRpc({ url, body: '<methodCall/>', deadlineMs: 2000, maxResponseBytes: 1 << 20 }, agent);
    const k = out.ok ? 'ok' : out.kind;
    kinds[k] = (kinds[k] ?? 0) + 1;
  } catch (err) {
    clientCrashes++;
    process.stderr.write(`client crash: ${(err as Error).message}\n`);
  }
}
await agent.close();
server.close();
await rt.close();
await db.close();
await redis.stop();

const requests = HTTP + URLS - skipped + POLICY + REPEATS;
const fiveXx = http500 + url5xx + policy5xx + repeat5xx;
const summary = {
  seed: Number(process.env.FUZZ_SEED ?? 1),
  routes: routes.length,
  http: { sent: HTTP - skipped, skippedNonLoopback: skipped, statuses, http500, crashes },
  urls: { sent: URLS, templates: templates.length, statuses: urlStatuses, http5xx: url5xx, crashes: urlCrashes },
  repeatedParameters: {
    sent: REPEATS,
    routes: registered.length,
    statuses: repeatStatuses,
    http5xx: repeat5xx,
    notRefused: repeatOther,
    crashes: repeatCrashes,
  },
  urlPolicy: { registrations: POLICY, statuses: policyStatuses, acceptedOnPublicDeployment: policyAccepted, http5xx: policy5xx },
  fiveXxPerThousandRequests: Number(((fiveXx / requests) * 1000).toFixed(3)),
  decoder: { inputs: DECODE, decoded: decodedOk, refused, crashes: decodeCrashes },
  client: { calls: CLIENT, outcomes: kinds, crashes: clientCrashes },
  total: requests + DECODE + CLIENT,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(fiveXx + crashes + urlCrashes + repeatOther + repeatCrashes + policyAccepted + decodeCrashes + clientCrashes === 0 ? 0 : 1);
