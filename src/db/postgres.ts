import pg from 'pg';
import type { Database, Queryable } from './database.ts';

export interface PostgresOptions {
  url: string;
  /** Tests isolate themselves in a schema of their own. */
  schema?: string;
  max?: number;
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client losing its connection (PostgreSQL restarted) must not crash the process.
  pool.on('error', () => {});
  if (options.schema) {
    const client = await pool.connect();
    try {
      await client.query(`create schema if not exists "${options.schema}"`);
    } finally {
      client.release();
    }
  }
  const query: Queryable['query'] = async (sql, params) => (await pool.query(sql, params as unknown[])).rows as never[];
  return {
    kind: 'postgres',
    query,
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const tx: Queryable = {
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as never[],
          exec: async (sql) => void (await client.query(sql)),
        };
        const value = await fn(tx);
        await client.query('commit');
        return value;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async script(sql) {
      const results = (await pool.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(results) ? results : [results]).map((r) => r.rows as Record<string, unknown>[]);
    },
    async close() {
      await pool.end();
    },
  };
}
