// What an installation holds, for the benches that measure it: Redis (its keys and their
// memory, MEMORY USAGE over the installation's prefix), the database's tables, and the
// resident memory of a process.
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Database } from '../../src/db/database.ts';

export async function redisFigures(redis: Redis, prefix: string): Promise<{ keys: number; bytes: number }> {
  let cursor = '0';
  let keys = 0;
  let bytes = 0;
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    keys += found.length;
    if (found.length > 0) {
      const pipeline = redis.pipeline();
      for (const key of found) pipeline.memory('USAGE', key);
      for (const [, n] of (await pipeline.exec()) ?? []) bytes += Number(n ?? 0);
    }
  } while (cursor !== '0');
  return { keys, bytes };
}

/** Every table of the schema in use, with its indexes and TOAST. */
export async function databaseBytes(db: Database): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and c.relkind in ('r', 'm')`,
  );
  return Number(rows[0].n);
}

export const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
