// /metrics on a running meta-server has the series an operator alerts on
// (docs/alert-rules.md): the database and Redis up, the outages' counters, and the age of
// the oldest pair still owed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, serverSettled, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let good: FaultyServer;

beforeAll(async () => {
  ms = await startTestMetaserver();
  good = await startFaultyServer({ kind: 'good' });
});
afterAll(async () => {
  await ms?.stop();
  await good?.close();
});

async function metrics(): Promise<string> {
  const res = await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of an unlabelled series, or undefined when it is absent. */
function value(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('/metrics for alerting', () => {
  it('says the database and Redis are up, no outage met, nothing owed', async () => {
    const text = await metrics();
    expect(text).toContain('# TYPE metaserver_database_up gauge');
    expect(text).toContain('# TYPE metaserver_database_write_errors_total counter');
    expect(value(text, 'metaserver_database_up')).toBe(1);
    expect(value(text, 'metaserver_redis_up')).toBe(1);
    expect(value(text, 'metaserver_database_write_errors_total')).toBe(0);
    expect(value(text, 'metaserver_redis_connection_errors_total')).toBe(0);
    expect(value(text, 'metaserver_dispatch_oldest_unsettled_seconds')).toBe(0);
  });

  it('measures the oldest unsettled pair of a running challenge, and 0 again once all are settled', async () => {
    await ms.challenge('alerts', { name: 'Alerts', timeoutSeconds: 5 });
    await ms.articles('alerts', [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53.' }]);
    const token = (await ms.team('Alerts team')).token;
    const serverId = (await ms.server('alerts', token, { name: 'good', url: good.url })).id;
    // Registered, not started: its pair is owed but not due (a paused server's pairs wait on purpose).
    expect(value(await metrics(), 'metaserver_dispatch_oldest_unsettled_seconds')).toBe(0);
    await ms.startServer(serverId, token);
    await serverSettled(ms, serverId, 1);
    expect(value(await metrics(), 'metaserver_dispatch_oldest_unsettled_seconds')).toBe(0);
    // A pair owed since a minute ago (an article loaded then, its job lost): its age is what the series says.
    await ms.database.db.query(`update articles set created_at = now() - interval '1 minute' where organiser_id = 'A1'`);
    await ms.database.db.query(`update challenges set phase_changed_at = now() - interval '1 minute' where slug = 'alerts'`);
    await ms.database.db.query(`update servers set created_at = now() - interval '1 minute' where id = $1`, [serverId]);
    await ms.database.db.query(`update deliveries set state = 'queued' where server_id = $1`, [serverId]);
    const age = value(await metrics(), 'metaserver_dispatch_oldest_unsettled_seconds')!;
    expect(age).toBeGreaterThanOrEqual(59);
    expect(age).toBeLessThan(120);
  });
});
