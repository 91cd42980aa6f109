// Each server's deliveries by state, read from the counters migration 017 keeps (a few rows
// per server) rather than counted over a million deliveries: the server page, the
// organiser's glance and the article list's totals all read them here. The counters are
// deltas: they are folded into one row per state first, so a figure read often reads a
// handful of rows.
import type { Queryable } from './database.ts';
import { isDatabaseFailure } from './retry.ts';

export interface DeliveryCounts {
  queued: number;
  active: number;
  done: number;
  failed: number;
}

/** The servers' deliveries by state; a server with none is left out. */
export async function deliveryCounts(db: Queryable, serverIds: readonly number[]): Promise<Map<number, DeliveryCounts>> {
  const out = new Map<number, DeliveryCounts>();
  if (serverIds.length === 0) return out;
  // Folding writes; the sums read the same without it, so a database refusing writes (PGlite
  // below its disk reserve, a read-only PostgreSQL) skips it and the figures still answer.
  await db.query('select fold_delivery_state_counts($1::int[])', [[...serverIds]]).catch((err: unknown) => {
    if (!isDatabaseFailure(err)) throw err;
  });
  const rows = await db.query<{ server_id: number; state: keyof DeliveryCounts; n: number }>(
    `select server_id, state, sum(n)::int as n from delivery_state_counts
     where server_id = any($1::int[]) group by server_id, state`,
    [[...serverIds]],
  );
  for (const r of rows) {
    let p = out.get(r.server_id);
    if (!p) out.set(r.server_id, (p = { queued: 0, active: 0, done: 0, failed: 0 }));
    p[r.state] = r.n;
  }
  return out;
}
