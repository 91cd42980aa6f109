// The client side of `metaserver testsuite run`: create a run through the API, optionally
// wait until every server copy has answered every item, then print the reports. Only the
// public HTTP API is used, so it works against any meta-server the token is valid for.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { documentOfItems } from '../testsuites/suite-document.ts';
import { readSuite } from '../testsuites/suite-files.ts';
import { ApiCallError, callApi, callApiText, type ApiTarget } from './api-client.ts';

export interface RunCommandOptions {
  url: string;
  token: string;
  name: string;
  server: string[];
  entityQuery?: string;
  sentenceQuery?: string;
  sample?: string;
  seed?: string;
  suite?: string;
  wait?: boolean;
  format: 'json' | 'tsv';
  by?: string[];
  interval: string;
  timeout?: string;
}

export interface RunIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export class RunArgumentError extends Error {}

interface Created {
  name: string;
  challenge: string;
  items: number;
  servers: { sourceServerId: number; serverId: number }[];
}

/** The API the command talks to (the CLI's one client). */
const target = (o: RunCommandOptions): ApiTarget => ({ url: o.url.replace(/\/+$/, ''), token: o.token });

async function uploadedSuite(dir: string): Promise<unknown> {
  const items = await readSuite(dir);
  const manifest = JSON.parse(await readFile(join(dir, 'suite.json'), 'utf8')) as { made?: Record<string, unknown>; productSize?: number };
  return documentOfItems(items, manifest.made ?? {}, manifest.productSize);
}

async function createBody(o: RunCommandOptions): Promise<Record<string, unknown>> {
  const servers = o.server.map((s) => {
    const id = Number(s);
    if (!Number.isInteger(id) || id < 1) throw new RunArgumentError(`--server must be a server id, not "${s}"`);
    return id;
  });
  if (o.suite) {
    if (o.entityQuery || o.sentenceQuery || o.sample || o.seed)
      throw new RunArgumentError('--suite takes a generated suite; leave out the query and sample options');
    return { name: o.name, servers, suite: await uploadedSuite(o.suite) };
  }
  const sample = o.sample === undefined ? undefined : Number(o.sample);
  if (sample !== undefined && !(Number.isInteger(sample) && sample > 0))
    throw new RunArgumentError(`--sample must be a positive integer, not "${o.sample}"`);
  if (o.seed !== undefined && sample === undefined) throw new RunArgumentError('--seed only applies with --sample');
  return { name: o.name, servers, entityQuery: o.entityQuery, sentenceQuery: o.sentenceQuery, sample, seed: o.seed };
}

async function waitUntilDone(o: RunCommandOptions, io: RunIo): Promise<void> {
  const interval = Number(o.interval);
  const deadline = o.timeout === undefined ? Infinity : Date.now() + Number(o.timeout) * 1000;
  let last = '';
  for (;;) {
    const status = await callApi<{
      done: boolean;
      items: number;
      servers: { serverId: number; progress: { queued: number; active: number; done: number; failed: number } }[];
    }>(target(o), 'GET', `/api/testsuites/${encodeURIComponent(o.name)}`);
    const line = status.servers
      .map(
        (s) =>
          `server ${s.serverId}: ${s.progress.done + s.progress.failed}/${status.items}${s.progress.failed ? ` (${s.progress.failed} failed)` : ''}`,
      )
      .join(', ');
    if (line !== last) io.stderr(`${line}\n`);
    last = line;
    if (status.done) return;
    if (Date.now() > deadline)
      throw new ApiCallError(`gave up waiting after ${o.timeout} s (${line}); the run goes on — ask for the report later`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

export async function runSuiteCommand(o: RunCommandOptions, io: RunIo): Promise<void> {
  const body = await createBody(o);
  const created = await callApi<Created>(target(o), 'POST', '/api/testsuites', body);
  io.stderr(
    `created test suite ${created.name} (${created.items} items) on ${created.servers.map((s) => `server ${s.serverId} (copy of ${s.sourceServerId})`).join(', ')}\n`,
  );
  if (!o.wait) {
    io.stdout(JSON.stringify(created, null, 2) + '\n');
    return;
  }
  await waitUntilDone(o, io);
  const tsv: string[] = [];
  const json: unknown[] = [];
  for (const s of created.servers) {
    const q = new URLSearchParams({ server: String(s.serverId), format: o.format });
    for (const b of o.by ?? []) q.append('by', b);
    const text = await callApiText(target(o), 'GET', `/api/testsuites/${encodeURIComponent(created.name)}/report?${q.toString()}`);
    if (o.format === 'json') json.push(JSON.parse(text));
    else tsv.push(created.servers.length > 1 ? `# server ${s.serverId} (copy of ${s.sourceServerId})\n${text}` : text);
  }
  // One server: exactly the report; several: a JSON array, or TSV sections under a "# server" line.
  if (o.format === 'json') io.stdout(JSON.stringify(json.length === 1 ? json[0] : json, null, 2) + '\n');
  else io.stdout(tsv.join('\n'));
}
