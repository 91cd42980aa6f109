// The series an operator alerts on (docs/alert-rules.md): whether the database and Redis
// were up at the latest look, the outages' counts, and how far behind dispatch is. Read at
// scrape time from this process's outages (dispatch/outages.ts) and one query.
import { Counter, Gauge, Registry } from 'prom-client';
import type { Outages } from '../dispatch/outages.ts';
import type { UnsettledRepository } from '../dispatch/unsettled-repository.ts';
import { withinTime } from '../shared/timeout.ts';

/** How long a series' query may take: a scrape must not hang on a database that does not answer. */
const QUERY_WAIT_MS = 2000;

interface ConditionMetricsDeps {
  outages: Outages;
  unsettled: Pick<UnsettledRepository, 'oldestAgeSeconds'>;
  /** Whether the database refuses writes for lack of disk space (PGlite's reserve; always false on PostgreSQL). */
  diskFull(): boolean;
}

/** A counter whose value is read when scraped (prom-client counters only count up by themselves). */
export function readCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      const n = read();
      if (n > 0) this.inc(n);
    },
  });
}

function upGauge(registry: Registry, name: string, help: string, read: () => boolean): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read() ? 1 : 0);
    },
  });
}

/**
 * A gauge read from the database when scraped, within QUERY_WAIT_MS. Not reset when the read
 * fails or is late: while the database does not answer, the last value read stays (an alert
 * on it keeps firing).
 */
export function queriedGauge(registry: Registry, name: string, help: string, read: () => Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const got = await withinTime(
        read().then(
          (value) => ({ value }),
          () => null,
        ),
        QUERY_WAIT_MS,
        null,
      );
      if (got) this.set(got.value);
    },
  });
}

export function conditionRegistry({ outages, unsettled, diskFull }: ConditionMetricsDeps): Registry {
  const registry = new Registry();
  const { database, redis } = outages;
  upGauge(
    registry,
    'metaserver_database_up',
    'Whether the database answered at the latest look: a dispatch write, or a /healthz check (1 up, 0 down).',
    () => database.up,
  );
  upGauge(
    registry,
    'metaserver_redis_up',
    'Whether Redis answered at the latest look: the connection, or a /healthz check (1 up, 0 down).',
    () => redis.up,
  );
  upGauge(
    registry,
    'metaserver_database_disk_full',
    "Whether PGlite's data directory is below its free-space reserve, so writes are refused with 507 database_disk_full until space returns (1) or not (0).",
    diskFull,
  );
  readCounter(
    registry,
    'metaserver_database_write_errors_total',
    "Dispatch writes this process's workers found the database unreachable or refusing for; each request is put back, unblamed, and made again later.",
    () => database.occurrences,
  );
  readCounter(
    registry,
    'metaserver_redis_connection_errors_total',
    "Errors this process's shared Redis connection met (it reconnects by itself).",
    () => redis.occurrences,
  );
  queriedGauge(
    registry,
    'metaserver_dispatch_oldest_unsettled_seconds',
    "Age of the oldest unsettled (article, server) pair of a running challenge's started servers, in seconds (0 when none; the last value read while the database does not answer).",
    async () => Math.max(0, (await unsettled.oldestAgeSeconds()) ?? 0),
  );
  return registry;
}
