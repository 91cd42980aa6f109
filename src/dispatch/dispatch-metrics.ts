// What this process's workers did, for Prometheus: attempts by outcome, response times and
// requests in flight per annotation server. One registry per process (not prom-client's
// global default), because the figures belong to the process that made the calls: with
// separate worker processes, each one's own counts are its own.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Response-time buckets in seconds: annotation servers answer in milliseconds to minutes. */
const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

class DispatchMetrics {
  readonly registry = new Registry();
  readonly attempts = new Counter({
    name: 'metaserver_attempts_total',
    help: "Requests made to annotation servers by this process, by server and outcome (ok, timeout, connection, http, protocol, fault, invalid; interrupted: this process's worker stopped mid-request, released: a pull server's agent gave the lease back; neither counts against the server).",
    labelNames: ['server', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly responseSeconds = new Histogram({
    name: 'metaserver_response_seconds',
    help: 'Time from sending a request to an annotation server until its answer (or failure), by server.',
    labelNames: ['server'] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: 'metaserver_requests_in_flight',
    help: 'Requests to annotation servers this process is waiting on now, by server.',
    labelNames: ['server'] as const,
    registers: [this.registry],
  });

  observe(serverId: number, outcome: string, ms: number): void {
    this.attempts.labels(String(serverId), outcome).inc();
    this.responseSeconds.labels(String(serverId)).observe(ms / 1000);
  }
}

export const dispatchMetrics = new DispatchMetrics();
