// GET /healthz: whether Redis and the database answer, whether dispatch is progressing, and
// which lookup releases are loaded. The plugin takes the checks and the loaded releases by
// name from the composition root. The status (200 or 503) is about this process's own
// stores, what a load balancer acts on; a stalled dispatch is said in the body (and in
// /metrics) for an operator, since taking the API out of service would not mend it.
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
import type { DispatchProgress } from '../dispatch/progress.ts';

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
  /** Whether every called server owing pairs has had an attempt end recently (one query). */
  dispatchProgress(): Promise<DispatchProgress>;
  /** Pairs the reconciler found unsettled with no job in Redis at its latest look. */
  shortfall: { readonly pairsWithoutJob: number };
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
  dispatch: Open(
    {
      state: Type.String({
        description:
          'idle (nothing owed), progressing, stalled (a called server owes pairs and no attempt of it ended for longer than its deadline and back-off allow), or unknown (the database did not answer)',
      }),
      owingServers: Type.Optional(Type.Integer({ description: 'called servers of running challenges that owe pairs' })),
      stalled: Type.Optional(
        Type.Array(
          Open({
            serverId: Type.Integer(),
            server: Type.String(),
            challenge: Type.String(),
            quietSeconds: Type.Integer({ description: 'seconds since an attempt of the server ended (or its oldest pair became due)' }),
            limitSeconds: Type.Integer({
              description: 'what its calls and retries may take: deadline + longest back-off + reconciler interval + 60 s',
            }),
          }),
        ),
      ),
      pairsWithoutJob: Type.Integer({
        description:
          "pairs the database holds unsettled with no job in Redis at this process's latest reconciliation (their jobs are made again)",
      }),
    },
    'whether dispatch is progressing; the status code does not depend on it',
  ),
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
  let running: Promise<{ redis: boolean; database: boolean; progress: DispatchProgress | null }> | undefined;
  const check = () =>
    (running ??= Promise.all([
      withinTime(deps.pingRedis(), CHECK_TIMEOUT_MS, false),
      withinTime(deps.settings.ping(), CHECK_TIMEOUT_MS, false),
      withinTime(
        deps.dispatchProgress().catch(() => null),
        CHECK_TIMEOUT_MS,
        null,
      ),
    ])
      .then(([redis, database, progress]) => {
        deps.outages.redis.checked(redis);
        deps.outages.database.checked(database);
        return { redis, database, progress };
      })
      .finally(() => {
        running = undefined;
      }));

  return async (_request, reply) => {
    const { redis, database, progress } = await check();
    // A full disk leaves reads working: 200 "degraded", so a load balancer keeps sending the
    // reads (a PGlite installation has this one process), while a monitor sees it is not ok.
    const diskFull = database && deps.settings.diskFull();
    const body = {
      status: redis && database ? (diskFull ? 'degraded' : 'ok') : 'unavailable',
      redis: redis ? 'ok' : 'unreachable',
      database: database ? (diskFull ? 'disk full' : 'ok') : 'unreachable',
      uniprot: deps.accessions ? deps.accessions.release : null,
      indexes: lookupReleases(deps.lookups),
      dispatch: { ...(progress ?? { state: 'unknown' }), pairsWithoutJob: deps.shortfall.pairsWithoutJob },
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
