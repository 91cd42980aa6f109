// A challenge's gold standard as the meta-server stored it, read straight from its database:
// what the gold tests compare with the file they uploaded (or find absent after a refusal).
import type { TestMetaserver } from './runtime.ts';

/** The stored gold of the challenge's task, as stored; undefined when there is none. */
export async function storedGold(ms: TestMetaserver, slug: string, task: string): Promise<string | undefined> {
  const rows = await ms.database.db.query<{ body: string }>(
    'select g.body from gold_standards g join challenges c on c.id = g.challenge_id where c.slug = $1 and g.task = $2',
    [slug, task],
  );
  return rows[0]?.body;
}
