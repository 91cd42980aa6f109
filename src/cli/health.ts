// `metaserver health`: a container health check (docker-compose.yml), run beside the
// service it checks, with the same environment. The API: its /healthz answers 200 (Redis
// and the database answer it). A worker, which has no port: its heartbeat file is fresh
// (queue/heartbeat-file.ts). Exit 0 when healthy, 1 with the reason otherwise.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { heartbeatProblem } from '../queue/heartbeat-file.ts';

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
      process.stderr.write('metaserver health --worker: METASERVER_WORKER_HEARTBEAT_FILE is not set, so the worker writes no heartbeat to check; set it (the same value) for the worker and for this check.\n');
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
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(API_TIMEOUT_MS) });
    const body = await res.text();
    if (res.status !== 200) {
      process.stderr.write(`metaserver health: unhealthy: ${url} answered ${res.status}: ${body}\n`);
      return 1;
    }
    process.stdout.write(`api healthy: ${body}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`metaserver health: unhealthy: ${url} did not answer (${(err as Error).message}); is the API running on this HOST and PORT?\n`);
    return 1;
  }
}
