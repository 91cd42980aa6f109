// The end of every fault test of dispatch: each (article, server) pair answered, exactly once,
// and every delivery done — waited for, then asserted, with the deliveries' states in the
// message when the wait runs out (what a stranded run looks like).
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/database.ts';
import { waitFor } from './runtime.ts';

export async function expectEveryPairAnsweredOnce(db: Queryable, pairs: number, withinMs: number): Promise<void> {
  const answers = async () => (await db.query<{ n: number }>('select count(*)::int as n from answers'))[0].n;
  await waitFor('every pair answered', async () => ((await answers()) === pairs ? true : undefined), withinMs).catch(async (err: Error) => {
    const states = await db.query('select state, count(*)::int as n from deliveries group by state order by state');
    throw new Error(`${err.message}; deliveries: ${JSON.stringify(states)}`);
  });
  const perPair = await db.query<{ n: number }>(
    `select count(a.article_id)::int as n from deliveries d
     left join answers a on a.article_id = d.article_id and a.server_id = d.server_id group by d.article_id, d.server_id`,
  );
  expect(perPair).toHaveLength(pairs);
  expect(perPair.every((p) => p.n === 1)).toBe(true);
  expect(await db.query(`select state, count(*)::int as n from deliveries group by state`)).toEqual([{ state: 'done', n: pairs }]);
}
