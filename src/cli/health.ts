// `metaserver health`: a container health check (docker-compose.yml), run beside the
// service it checks, with the same environment. The API: its /healthz answers 200 (Redis
// and the database answer it). A worker, which has no port: its heartbeat file is fresh
// (queue/heartbeat-file.ts). Exit 0 when healthy, 1 with the reason otherwise.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { heartbeatProblem } from '../queue/heartbeat-file.ts';
import { withinTime } from '../shared/timeout.ts';
import { ApiCallError, callApiText } from './api-client.ts';

const USAGE = `usage: metaserver health [--worker]
  (no option)  the API process on this machine: GET /healthz on HOST/PORT answers 200
  --worker     the worker process on this machine: its METASERVER_WORKER_HEARTBEAT_FILE is fresh`;

/** How long the API has to answer: /healthz itself gives Redis and the database 2 s. */
const API_TIMEOUT_MS = 5000;

export async function runHealthCommand(args: string[]): Promise<number> {
  let worker: boolean;
  try {
    worker = parseArgs({ args, options: { worker: { type: 'boolean', default: false } }, strict: true }).values.worker;
  } catch (err) {
    process.stderr.write(`metaserver health: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  if (worker) {
    if (!config.workerHeartbeatFile) {
      process.stderr.write(
        'metaserver health --worker: METASERVER_WORKER_HEARTBEAT_FILE is not set, so the worker writes no heartbeat to check; set it (the same value) for the worker and for this check.\n',
      );
      return 1;
    }
    const problem = heartbeatProblem(config.workerHeartbeatFile, config.serverSyncIntervalMs);
    if (problem) {
      process.stderr.write(`metaserver health --worker: unhealthy: ${problem}\n`);
      return 1;
    }
    process.stdout.write('worker healthy\n');
    return 0;
  }
  // Listening on every interface: this machine's loopback reaches it.
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const TIMED_OUT = { failed: `${url}/healthz did not answer within ${API_TIMEOUT_MS / 1000} s` };
  const call = callApiText({ url, token: '' }, 'GET', '/healthz').then(
    (body) => ({ body }),
    (err: Error) => ({
      failed:
        err instanceof ApiCallError && err.status === undefined ? `${err.message}; is the API running on this HOST and PORT?` : err.message,
    }),
  );
  const outcome: { body: string } | { failed: string } = await withinTime<{ body: string } | { failed: string }>(
    call,
    API_TIMEOUT_MS,
    TIMED_OUT,
  );
  if ('failed' in outcome) {
    process.stderr.write(`metaserver health: unhealthy: ${outcome.failed}\n`);
    return 1;
  }
  process.stdout.write(`api healthy: ${outcome.body}\n`);
  return 0;
}
