// GET /healthz: whether Redis and the database answer, and which lookup releases are loaded.
// The plugin takes the two checks and the loaded releases by name from the composition root.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Described, Open, responses } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { SettingsRepository } from '../db/settings-repository.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import type { FamilyLookups } from '../families/family.ts';
import { withinTime } from '../shared/timeout.ts';
import { lookupReleases } from '../families/lookups.ts';
import type { Condition } from '../shared/condition.ts';

/** What /healthz checks and reports, handed over by the composition root. */
export interface HealthRouteDeps {
  /** Whether the queue store answers. */
  pingRedis(): Promise<boolean>;
  /** The database's own check. */
  settings: Pick<SettingsRepository, 'ping' | 'diskFull'>;
  accessions: Pick<AccessionLookup, 'release'> | null;
  lookups: FamilyLookups;
  /** Told what each check found, so /metrics says up or down as of the latest look (and an outage logged is over once a check passes). */
  outages: { database: Pick<Condition, 'checked'>; redis: Pick<Condition, 'checked'> };
}

/**
 * How long Redis and the database have to answer. The Redis connection queues commands
 * while it reconnects, so without a limit a check made while Redis is down would wait until
 * it is back, and so would everything polling /healthz.
 */
const CHECK_TIMEOUT_MS = 2000;

const Health = Open({
  status: Type.String({
    description:
      'ok; unavailable (503) when Redis or the database does not answer; degraded (200) when the database refuses writes for a full disk but still serves reads',
  }),
  redis: Type.String({ description: 'ok or unreachable' }),
  database: Type.String({ description: 'ok, unreachable, or disk full (writes refused until space is freed)' }),
  uniprot: Described('the loaded UniProt release, or null'),
  indexes: Described('the release of each loaded lookup index'),
});
const HealthCheck = {
  tags: ['health'],
  summary: 'Whether Redis and the database answer',
  response: responses({ 200: Health, 503: Health }),
};

function healthHandler(deps: HealthRouteDeps): RouteHandler<typeof HealthCheck> {
  /**
   * The check under way: requests that arrive meanwhile share it instead of sending a
   * ping and a query each (monitors and load balancers may poll many times a second), so
   * an answer is never older than one check.
   */
  let running: Promise<{ redis: boolean; database: boolean }> | undefined;
  const check = () =>
    (running ??= Promise.all([
      withinTime(deps.pingRedis(), CHECK_TIMEOUT_MS, false),
      withinTime(deps.settings.ping(), CHECK_TIMEOUT_MS, false),
    ])
      .then(([redis, database]) => {
        deps.outages.redis.checked(redis);
        deps.outages.database.checked(database);
        return { redis, database };
      })
      .finally(() => {
        running = undefined;
      }));

  return async (_request, reply) => {
    const { redis, database } = await check();
    // A full disk leaves reads working: 200 "degraded", so a load balancer keeps sending the
    // reads (a PGlite installation has this one process), while a monitor sees it is not ok.
    const diskFull = database && deps.settings.diskFull();
    const body = {
      status: redis && database ? (diskFull ? 'degraded' : 'ok') : 'unavailable',
      redis: redis ? 'ok' : 'unreachable',
      database: database ? (diskFull ? 'disk full' : 'ok') : 'unreachable',
      uniprot: deps.accessions ? deps.accessions.release : null,
      indexes: lookupReleases(deps.lookups),
    };
    return reply.status(redis && database ? 200 : 503).send(body);
  };
}

export function healthRoutes(deps: HealthRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/healthz', { schema: HealthCheck, config: { access: 'public' } }, healthHandler(deps));
  };
}
